/** zh-CN messages of the item and entity editors and the manage pages (/create/item/…, /create/entity/…). */
export const itemEditor = {
  'itemEditor.title': '编辑条目',
} as const;
