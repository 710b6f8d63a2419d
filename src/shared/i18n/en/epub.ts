import type { AreaMessages } from '../message.ts';
import type { epub as reference } from '../zh-CN/epub.ts';

/** English messages of EPUB uploads. */
export const epub: AreaMessages<typeof reference> = {
  'epub.title': 'EPUB file',
};
