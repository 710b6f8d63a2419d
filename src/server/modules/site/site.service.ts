import type { Locale, PageMessages } from '../../../shared/i18n/index.ts';
import { messagesFor, PAGE_AREAS } from '../../../shared/i18n/catalogues.ts';
import type { Area } from '../../../shared/i18n/zh-CN/index.ts';
import type { PublicConfig } from '../../../shared/public-config.ts';
import type { Config } from '../../platform/config.ts';

/** The part of the configuration the browser may see. */
export function publicConfigFrom(config: Config): PublicConfig {
  return {
    imageBedUrl: config.imageBedUrl,
    imageAllowedHosts: config.imageAllowedHosts,
    analytics: config.analytics ?? null,
    chatUrl: config.chatUrl ?? null,
    navAdUrl: config.navAdUrl ?? null,
  };
}

/** JSON safe to place inside a <script> element (no `</script>` or `<!--` can appear). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const configScripts = new WeakMap<Config, string>();

/** The public configuration as script JSON, built once per configuration object. */
export function publicConfigScript(config: Config): string {
  let json = configScripts.get(config);
  if (json === undefined) {
    json = jsonForScript(publicConfigFrom(config));
    configScripts.set(config, json);
  }
  return json;
}

const messageScripts = new Map<string, string>();

/**
 * The messages a page carries for its islands (its language, the areas every page uses and the ones it
 * names) as script JSON. Pages name their areas in code, so the combinations are few: each is built
 * once per process instead of serialising tens of kilobytes on every render.
 */
export function pageMessagesScript(locale: Locale, areas: readonly Area[]): string {
  const key = `${locale}:${areas.join(',')}`;
  let json = messageScripts.get(key);
  if (json === undefined) {
    const page: PageMessages = { locale, messages: messagesFor(locale, [...PAGE_AREAS, ...areas]) };
    json = jsonForScript(page);
    messageScripts.set(key, json);
  }
  return json;
}
