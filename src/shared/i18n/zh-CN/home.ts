/** zh-CN messages of the home area (the reference: every key here must exist in en/home.ts). */
export const home = {
  'home.heroTitle': '在光里，遇见下一部心动的作品',
  'home.heroText': '整理玩过的 Galgame、追读中的轻小说，和同好一起分享感想。',
  'home.explore': '开始探索',
  'home.sections': '站点导览',
  'home.section.community': '社区',
  'home.section.community.text': '发帖、写长评、参与话题讨论。',
  'home.section.galgame': 'Galgame',
  'home.section.galgame.text': '作品资料、评分与下载信息。',
  'home.section.lightnovel': '轻小说',
  'home.section.lightnovel.text': '系列与卷册，在线阅读 EPUB。',
  'home.section.rules': '社区规范',
  'home.section.rules.text': '剧透标记、资源分享与相处之道。',
  'home.section.docs': '文档中心',
  'home.section.docs.text': '新手指南、积分说明与创作者指南。',
  'home.announcements': '站点公告',
  'home.pinned': '置顶',
  'home.readMore': '查看详情',

  'home.latestGames': '新作',
  'home.moreGames': '更多作品',
} as const;
