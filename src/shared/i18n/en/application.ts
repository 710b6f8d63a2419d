import type { AreaMessages } from '../message.ts';
import type { application as reference } from '../zh-CN/application.ts';

/** en messages of creator applications (/creator-application) and their review. */
export const application: AreaMessages<typeof reference> = {
  'application.title': 'Creator application',
};
