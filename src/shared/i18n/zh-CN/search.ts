/** zh-CN messages of the search area: the /search page, the header's search box and the API's answers. */
export const search = {
  'search.validation.keyword': '搜索关键词',
  'search.validation.prefix': '搜索前缀',
  'search.validation.type': '搜索类型只能是 galgame、novel、producer 或 person',
  'search.validation.relativeMatch': 'relative_match 只能是 true 或 false',
  'search.validation.window': '统计时段只能是 1h、24h 或 7d',
  'search.validation.blank': '请输入搜索关键词',
} as const;
