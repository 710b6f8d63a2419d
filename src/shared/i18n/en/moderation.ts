import type { AreaMessages } from '../message.ts';
import type { moderation as reference } from '../zh-CN/moderation.ts';

/** en messages of moderation: the report queue, hiding and restoring, bans, the audit log and roles. */
export const moderation: AreaMessages<typeof reference> = {
  'moderation.title': 'Moderation',
};
