import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

// The browser gets the messages of its page's language only: no built client chunk holds a catalogue,
// and each page carries the messages of its own language for its islands.

/** Messages every page sends to its islands (header, overlays, the API client), in both languages. */
const PHRASES = {
  'zh-CN': ['跳到正文', '登录状态已过期，请重新登录', '网络连接失败，请检查网络后重试'],
  en: [
    'Skip to content',
    'Your login has expired, please log in again',
    'Network error, please check your connection and try again',
  ],
} as const;

/** A message of the account forms: sent by the pages with a form only. */
const FORM_PHRASE = {
  'zh-CN': '验证注册邮箱后即可设置新密码',
  en: 'Verify the email you registered with, then choose a new password',
};

/** How a text appears in a chunk: as written, or with its non-ASCII characters escaped. */
function spellings(text: string): string[] {
  const escaped = text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [text, escaped, escaped.toUpperCase().replace(/\\U/g, '\\u')];
}

test('no client chunk holds the messages of either language', () => {
  const dir = path.resolve(import.meta.dirname, '../../dist/client/_astro');
  expect(existsSync(dir), 'build the site first').toBe(true);
  const chunks = readdirSync(dir).filter((name) => name.endsWith('.js'));
  expect(chunks.length).toBeGreaterThan(5);
  const found: string[] = [];
  for (const name of chunks) {
    const code = readFileSync(path.join(dir, name), 'utf8');
    for (const phrase of [...PHRASES['zh-CN'], ...PHRASES.en, ...Object.values(FORM_PHRASE)]) {
      if (spellings(phrase).some((spelling) => code.includes(spelling))) found.push(`${name}: ${phrase}`);
    }
  }
  expect(found).toEqual([]);
});

for (const [locale, other] of [
  ['en', 'zh-CN'],
  ['zh-CN', 'en'],
] as const) {
  test(`a ${locale} page carries the messages of ${locale} only, and of its own islands`, async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'hikari_locale', value: locale, url: baseURL ?? 'http://localhost' }]);
    for (const address of ['/', '/login', '/galgame/list']) {
      await page.goto(address);
      const carried = await page.locator('#hikari-messages').textContent();
      const messages = JSON.parse(carried ?? 'null') as { locale: string; messages: Record<string, string> };
      expect(messages.locale, address).toBe(locale);
      const values = Object.values(messages.messages).map((m) => JSON.stringify(m));
      const carries = (phrase: string) => values.some((v) => v.includes(phrase));
      for (const phrase of PHRASES[locale]) expect(carries(phrase), `${address}: ${phrase}`).toBe(true);
      for (const phrase of PHRASES[other]) expect(carries(phrase), `${address}: ${phrase}`).toBe(false);
      // The forms' messages come with the login page only.
      expect(carries(FORM_PHRASE[locale]), `${address}: ${FORM_PHRASE[locale]}`).toBe(address === '/login');
      expect(carries(FORM_PHRASE[other]), `${address}: ${FORM_PHRASE[other]}`).toBe(false);
    }
  });
}
