import type { AreaMessages } from '../message.ts';
import type { Area, MessageAreas } from '../zh-CN/index.ts';
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

/** The English catalogue, one module per area like zh-CN. Strings the spec quotes in English are verbatim. */
export const en: { readonly [A in Area]: AreaMessages<MessageAreas[A]> } = {
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
};
