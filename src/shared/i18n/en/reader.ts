import type { AreaMessages } from '../message.ts';
import type { reader as reference } from '../zh-CN/reader.ts';

/** English messages of the reader area. */
export const reader: AreaMessages<typeof reference> = {
  'reader.title': 'Reader',
};
