/** zh-CN messages of the user card and the follow button of members (spec §2.6, §4, §5, §8). */
export const userCard = {
  'userFollow.follow': '关注',
  'userFollow.followed': '已关注',
  'userFollow.login': '登录后才能使用关注功能',
  'userFollow.failed': '操作失败：{message}',

  'userCard.label': '{name} 的资料卡',
  'userCard.loading': '加载中...',
  'userCard.failed': '获取用户信息失败：{message}',
  'userCard.retry': '重试',
  'userCard.noSignature': '这个人很神秘，什么都没有写',
  'userCard.stat.following': '关注',
  'userCard.stat.followers': '粉丝',
  'userCard.stat.articles': '文章',
  'userCard.stat.posts': '帖子',
  'userCard.profile': '个人主页',
  'userCard.message': '私信',
  'userCard.messageLogin': '登录后才能使用私信功能',
  'userCard.messageSelf': '不能给自己发私信',
  'userCard.newTab': '（在新标签页中打开）',
} as const;
