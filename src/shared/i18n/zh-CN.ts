/**
 * The zh-CN catalogue: the default and the reference. Every key here must exist in en.ts
 * (the type there enforces it). Strings the spec quotes in Chinese are verbatim here.
 */
export const zhCN = {
  'site.name': 'Hikari',
  'site.tagline': 'Galgame 与轻小说爱好者的社区',
  'site.description': 'Hikari 是面向 Galgame 与轻小说爱好者的中文社区：作品资料、轻小说阅读、社区讨论与创作。',

  'nav.home': '首页',
  'nav.community': '社区',
  'nav.galgame': 'Galgame',
  'nav.lightnovel': '轻小说',
  'nav.rules': '社区规范',
  'nav.docs': '文档',
  'nav.skipToContent': '跳到正文',
  'nav.main': '主导航',

  'footer.docs': '文档中心',
  'footer.rules': '社区规范',
  'footer.privacy': '隐私政策',
  'footer.terms': '服务条款',
  'footer.friendLinks': '友情链接',
  'footer.links': '站点链接',
  'footer.language': '界面语言',
  'footer.copyright': '© {year} Hikari · 为热爱而建',

  'colorMode.system': '跟随系统',
  'colorMode.light': '浅色',
  'colorMode.dark': '深色',
  'colorMode.toggle': '切换配色：当前{mode}',

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

  'error.heading': '出错了',
  'error.backPrevious': '返回上一页',
  'error.backHome': '返回首页',
  'error.backReading': '返回阅读页',
  'error.pageNotFound': 'Page not found: {path}',
  'error.internal': '服务器开小差了，请稍后再试',

  'dialog.title': '提示',
  'dialog.confirm': '确定',
  'dialog.cancel': '取消',
  'dialog.close': '关闭',

  'toast.close': '关闭通知',
  'toast.region': '通知',

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

  'link.leaveTitle': '即将离开 Hikari',
  'link.leaveMessage': '你即将前往外部网站：\n{url}\n请注意保护账号与隐私，确定继续吗？',
  'link.copied': '已复制: {text}',
  'link.copyFailed': '复制失败: {error}',
  'link.copyPage': '复制链接',
  'build.updated': '网站已更新，将在下次跳转时载入新版本',
} as const;

export type MessageKey = keyof typeof zhCN;
