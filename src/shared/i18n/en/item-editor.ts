import type { AreaMessages } from '../message.ts';
import type { itemEditor as reference } from '../zh-CN/item-editor.ts';

/** en messages of the item and entity editors and the manage pages (/create/item/…, /create/entity/…). */
export const itemEditor: AreaMessages<typeof reference> = {
  'itemEditor.title': 'Edit an entry',
};
