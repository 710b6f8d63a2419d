/// <reference types="astro/client" />
/* eslint-disable @typescript-eslint/consistent-type-imports -- a global declaration file cannot use import statements */

declare namespace App {
  interface Locals {
    /** The server's shared context (database, config, logger), passed in by the server entry. */
    app: import('./server/context.ts').AppContext;
    /** The interface language of this request (set by src/middleware.ts). */
    locale: import('./shared/i18n/index.ts').Locale;
    /** The message lookup in this request's language (set by src/middleware.ts). */
    t: import('./shared/i18n/index.ts').Translate;
    /** Set by the server when this request may be answered from the page cache. */
    pageCapture?: import('./server/http/page-cache-policy.ts').PageCapture;
    /** Set by a page that is the same for every visitor (`cachePage`). */
    pageCachePolicy?: import('./server/http/page-cache-policy.ts').PageCachePolicy;
    /** Set when the page read the member's own data from their cookies (`markPersonal`): never shared. */
    personal?: boolean;
    /** The caller's address (behind a trusted proxy, the one it forwarded), set by the server for pages. */
    clientIp?: string;
    /** The status the error page answers with (Astro answers every error page 500; a database away is 503). */
    errorStatus?: number;
  }
}

/** Set at build time (astro.config.mjs): the id of this build, compared with builds/latest.json. */
declare const __BUILD_ID__: string;
