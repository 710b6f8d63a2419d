/** zh-CN messages of the lightnovel area. */
export const lightnovel = {
  'lightnovel.title': '轻小说',
} as const;
