import { defineMiddleware } from 'astro:middleware';
import { LOCALE_COOKIE, resolveLocale } from './shared/i18n/index.ts';
import { contentSecurityPolicy, pageSecurityHeaders } from './server/http/security-headers.ts';

/** Request data every page needs, and the security headers every page answer carries. */
export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.isPrerendered) {
    context.locals.locale = resolveLocale(null, context.cookies.get(LOCALE_COOKIE)?.value);
  } else {
    context.locals.locale = 'zh-CN';
  }
  const response = await next();
  if (context.isPrerendered) return response;
  const config = context.locals.app?.config;
  response.headers.set(
    'Content-Security-Policy',
    contentSecurityPolicy({ analyticsUrl: config?.analytics?.url, chatUrl: config?.chatUrl }),
  );
  for (const [name, value] of Object.entries(pageSecurityHeaders)) response.headers.set(name, value);
  if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-cache');
  return response;
});
