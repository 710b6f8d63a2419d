import type { AreaMessages } from '../message.ts';
import type { reader as reference } from '../zh-CN/reader.ts';

/** English messages of the reader area. */
export const reader: AreaMessages<typeof reference> = {
  'reader.title': 'Reader',
  'reader.label.chapter': 'Chapter',
  'reader.label.percentage': 'Progress',
  'reader.label.note': 'Note',
  'reader.label.volume': 'Volume id',
  'reader.validation.cfi': 'The reading position is not valid; reload the reader and try again',
  'reader.validation.at': 'The reading time is not a valid date and time',
  'reader.error.volumeNotFound': 'This volume does not exist or cannot be read yet',
  'reader.error.bookmarkNotFound': 'Bookmark not found',
  'reader.error.bookmarkLimit': 'This volume already has {max} bookmarks; delete some first',
  'reader.bookmarkAdded': 'Bookmark added',
  'reader.bookmarkSaved': 'Bookmark note saved',
  'reader.bookmarkDeleted': 'Bookmark deleted',
};
