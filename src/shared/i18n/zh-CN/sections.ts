/** zh-CN messages of section and topic management (/create/section/…). */
export const sections = {
  'sections.title': '版块管理',
} as const;
