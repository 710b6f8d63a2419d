/** zh-CN messages of the reader area. */
export const reader = {
  'reader.title': '阅读器',
} as const;
