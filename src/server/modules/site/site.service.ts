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
