/** zh-CN messages of the common area (the reference: every key here must exist in en/common.ts). */
export const common = {
  'site.name': 'Hikari',
  'site.tagline': 'Galgame 与轻小说爱好者的社区',
  'site.description': 'Hikari 是面向 Galgame 与轻小说爱好者的中文社区：作品资料、轻小说阅读、社区讨论与创作。',

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

  'link.leaveTitle': '即将离开 Hikari',
  'link.leaveMessage': '你即将前往外部网站：\n{url}\n请注意保护账号与隐私，确定继续吗？',
  'link.copied': '已复制: {text}',
  'link.copyFailed': '复制失败: {error}',
  'link.copyPage': '复制链接',

  'imagePreview.dialogTitle': '图片预览',
  'imagePreview.loading': '加载中...',
  'imagePreview.failed': '图片加载失败',
  'imagePreview.close': '关闭',
  'imagePreview.previous': '上一张',
  'imagePreview.next': '下一张',
  'imagePreview.zoomIn': '放大',
  'imagePreview.zoomOut': '缩小',
  'imagePreview.rotate': '旋转',
  'imagePreview.reset': '重置',
  'imagePreview.download': '下载',

  // The API client's own messages (any page with a login may show them).
  'auth.sessionExpired': '登录状态已过期，请重新登录',
  'auth.error.network': '网络连接失败，请检查网络后重试',
  'auth.error.timeout': '请求超时，请稍后重试',

  'build.updated': '网站已更新，将在下次跳转时载入新版本',
} as const;
