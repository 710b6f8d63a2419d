/** zh-CN messages of the reader area: the reader page, its server errors, and the reading history. */
export const reader = {
  'reader.title': '阅读器',
  'reader.label.chapter': '章节',
  'reader.label.percentage': '阅读进度',
  'reader.label.note': '笔记',
  'reader.label.volume': '卷 id',
  'reader.validation.cfi': '阅读位置格式不正确，请刷新阅读器后重试',
  'reader.validation.at': '阅读时间格式不正确',
  'reader.error.volumeNotFound': '这一卷不存在或暂不可读',
  'reader.error.bookmarkNotFound': '书签不存在',
  'reader.error.bookmarkLimit': '这一卷的书签已达 {max} 个，请先删除一些',
  'reader.bookmarkAdded': '已添加书签',
  'reader.bookmarkSaved': '书签笔记已保存',
  'reader.bookmarkDeleted': '书签已删除',
} as const;
