/** zh-CN messages of creator applications (/creator-application) and their review. */
export const application = {
  'application.title': '创作者申请',
} as const;
