/** zh-CN messages of the docs area (the reference: every key here must exist in en/docs.ts). */
export const docs = {
  'docs.title': '文档中心',
  'docs.searchPlaceholder': '搜索文档…',
  'docs.searchLabel': '搜索文档',
  'docs.searching': '搜索中…',
  'docs.noResults': '没有找到与“{query}”相关的内容',
  'docs.searchUnavailable': '搜索索引暂不可用',
  'docs.updated': '更新于 {date}',
  'docs.toc': '本页目录',
  'docs.nav': '文档目录',
  'docs.group.guide': '新手入门',
  'docs.group.community': '社区',
  'docs.group.creator': '创作者',
  'docs.group.general': '概览',
} as const;
