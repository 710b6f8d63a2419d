import { defineMiddleware } from 'astro:middleware';
import { translator } from './shared/i18n/catalogues.ts';
import { DEFAULT_LOCALE, localeOfPrerenderedPath, requestLocale } from './shared/i18n/index.ts';
import { createHash } from 'node:crypto';
import {
  contentSecurityPolicy,
  inlineScripts,
  pageSecurityHeaders,
  readerContentSecurityPolicy,
} from './server/http/security-headers.ts';
import { READER_PATH } from './shared/error-page.ts';
import { normalisePath } from './shared/layout.ts';
import { finishPage } from './server/http/page-cache-policy.ts';
import { uploadOrigin } from './server/platform/storage/upload-origin.ts';

/** Request data every page needs, and the security headers every page answer carries. */
export const onRequest = defineMiddleware(async (context, next) => {
  // A prerendered page is built once per locale: the default at its address, the others in a hidden
  // folder ("/_en/docs/…") that the static file server answers from when the cookie asks for it.
  context.locals.locale = context.isPrerendered
    ? (localeOfPrerenderedPath(context.url.pathname) ?? DEFAULT_LOCALE)
    : requestLocale(context.request.headers.get('cookie'));
  context.locals.t = translator(context.locals.locale);
  let response = await next();
  if (context.isPrerendered) return response;
  const { errorStatus } = context.locals;
  if (errorStatus && response.status !== errorStatus) {
    response = new Response(response.body, { status: errorStatus, headers: response.headers });
  }
  const config = context.locals.app?.config;
  if (normalisePath(context.url.pathname) === READER_PATH && isHtml(response)) {
    // The reader shows untrusted books: its own strict policy, allowing only this page's inline scripts.
    const html = await response.text();
    const scriptHashes = inlineScripts(html).map((code) => createHash('sha256').update(code).digest('base64'));
    response = new Response(html, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    response.headers.delete('Content-Length');
    response.headers.set(
      'Content-Security-Policy',
      readerContentSecurityPolicy({ scriptHashes, analyticsUrl: config?.analytics?.url }),
    );
    for (const [name, value] of Object.entries(pageSecurityHeaders)) response.headers.set(name, value);
    return finishPage(context.request, response, context.locals);
  }
  response.headers.set(
    'Content-Security-Policy',
    contentSecurityPolicy({
      analyticsUrl: config?.analytics?.url,
      chatUrl: config?.chatUrl,
      uploadOrigin: config ? uploadOrigin(config) : null,
    }),
  );
  for (const [name, value] of Object.entries(pageSecurityHeaders)) response.headers.set(name, value);
  return finishPage(context.request, response, context.locals);
});

const isHtml = (response: Response) => (response.headers.get('Content-Type') ?? '').startsWith('text/html');
