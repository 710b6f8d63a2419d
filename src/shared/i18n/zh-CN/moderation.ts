/** zh-CN messages of moderation: the report queue, hiding and restoring, bans, the audit log and roles. */
export const moderation = {
  'moderation.title': '社区管理',
} as const;
