import type { AreaMessages } from '../message.ts';
import type { lightnovel as reference } from '../zh-CN/lightnovel.ts';

/** English messages of the lightnovel area. */
export const lightnovel: AreaMessages<typeof reference> = {
  'lightnovel.title': 'Light novels',
};
