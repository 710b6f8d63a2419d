import { auth } from './auth.ts';
import { catalogue } from './catalogue.ts';
import { chat } from './chat.ts';
import { comments } from './comments.ts';
import { common } from './common.ts';
import { community } from './community.ts';
import { creator } from './creator.ts';
import { discussion } from './discussion.ts';
import { docs } from './docs.ts';
import { editor } from './editor.ts';
import { epub } from './epub.ts';
import { forum } from './forum.ts';
import { header } from './header.ts';
import { home } from './home.ts';
import { lightnovel } from './lightnovel.ts';
import { media } from './media.ts';
import { notifications } from './notifications.ts';
import { reader } from './reader.ts';
import { itemEditor } from './item-editor.ts';
import { application } from './application.ts';
import { moderation } from './moderation.ts';
import { sections } from './sections.ts';
import { revision } from './revision.ts';
import { server } from './server.ts';
import { userCard } from './user-card.ts';
import { space } from './space.ts';
import { search } from './search.ts';
import { validation } from './validation.ts';

/**
 * The zh-CN catalogue, one module per area: the default and the reference. Every key of an area here
 * must exist in the same area of en (the `AreaMessages` type there enforces it).
 */
export const zhCN = {
  common,
  header,
  home,
  auth,
  catalogue,
  media,
  creator,
  community,
  comments,
  discussion,
  forum,
  editor,
  docs,
  validation,
  notifications,
  server,
  userCard,
  space,
  search,
  chat,
  lightnovel,
  reader,
  epub,
  revision,
  itemEditor,
  application,
  moderation,
  sections,
} as const;

export type MessageAreas = typeof zhCN;
/** A part of the catalogue that is loaded as a whole (server messages, the catalogue pages…). */
export type Area = keyof MessageAreas;
export type MessageKey = { [A in Area]: keyof MessageAreas[A] }[Area];
