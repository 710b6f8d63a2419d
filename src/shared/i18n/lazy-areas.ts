import type { Locale } from './index.ts';
import { addPageMessages } from './page-messages.ts';

/**
 * Areas an island loads with its own code instead of every page carrying them: the chat window the
 * user card opens (chat texts, and the composer's emoji picker and uploader). One chunk per language.
 */
const loaders = {
  chat: {
    'zh-CN': () => import('./zh-CN/chat.ts').then((module) => module.chat),
    en: () => import('./en/chat.ts').then((module) => module.chat),
  },
  media: {
    'zh-CN': () => import('./zh-CN/media.ts').then((module) => module.media),
    en: () => import('./en/media.ts').then((module) => module.media),
  },
} as const satisfies Record<string, Record<Locale, () => Promise<Record<string, unknown>>>>;

export type LazyArea = keyof typeof loaders;

/** Loads the messages of `areas` in `locale` into the page's messages. */
export async function loadAreas(locale: Locale, areas: readonly LazyArea[]): Promise<void> {
  const parts = await Promise.all(areas.map((area) => loaders[area][locale]()));
  addPageMessages(locale, Object.assign({}, ...parts) as Record<string, unknown>);
}
