import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import yazl from 'yazl';

import { logInAsDemo } from './support/demo-login.ts';

/**
 * Books for the reader's browser tests, straight in the test server's database and media folder
 * (DATA_DIR, shared through `E2E_DATA_DIR`): the demo volumes' ids, and a hostile book that the upload
 * would refuse, stored the way an upload stores a book so only the reader stands between it and the page.
 */

function openDb(): { db: DatabaseSync; dataDir: string } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the tests through playwright.config.ts');
  const db = new DatabaseSync(path.join(dataDir, 'hikari.db'));
  db.exec('PRAGMA busy_timeout = 5000');
  return { db, dataDir };
}

/** Main volume 1 of a demo series (1…3 carry EPUBs), as the demo seed made it. */
function demoVolumeId(series: number): number {
  const { db } = openDb();
  try {
    const row = db
      .prepare("SELECT id, epub_key FROM lightnovel_volume WHERE lightnovel_id = ? AND kind = 'main' AND number = 1")
      .get(BigInt(series)) as { id: number | bigint; epub_key: string } | undefined;
    if (!row || !row.epub_key)
      throw new Error(`demo series ${series} has no volume 1 with an EPUB: is the demo seeded?`);
    return Number(row.id);
  } finally {
    db.close();
  }
}

function zip(entries: [name: string, text: string][]): Promise<Buffer> {
  const file = new yazl.ZipFile();
  file.addBuffer(Buffer.from('application/epub+zip'), 'mimetype', { compress: false });
  for (const [name, text] of entries) file.addBuffer(Buffer.from(text), name);
  file.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    file.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    file.outputStream.on('error', reject);
  });
}

/** An EPUB whose chapter tries to run script every way a page can: inline, handlers, javascript: links. */
function hostileEpub(): Promise<Buffer> {
  const chapter = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="zh" onload="top.localStorage.setItem('reader-pwned','html-onload')">
<head><title>脚本</title><script>top.localStorage.setItem('reader-pwned','inline');</script>
<script src="evil.js"></script></head>
<body onload="top.localStorage.setItem('reader-pwned','body-onload')">
<h1 id="c1">不会运行的脚本</h1>
<p>这一章藏着脚本，阅读器不会让它们运行。</p>
<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="top.localStorage.setItem('reader-pwned','img-onload')" alt="图"/></p>
<p><a id="js-link" href="javascript:top.localStorage.setItem('reader-pwned','link')">链接</a></p>
<p><a id="tab-link" href="java&#9;script:top.localStorage.setItem('reader-pwned','tab-link')">藏着制表符的链接</a></p>
<p><a id="out-link" href="https://example.com/outside">外部链接</a></p>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="top.localStorage.setItem('reader-pwned','svg')"><rect width="10" height="10"/></svg>
</body></html>`;
  return zip([
    [
      'META-INF/container.xml',
      `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ],
    [
      'OEBPS/content.opf',
      `<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-0000000000aa</dc:identifier><dc:title>脚本测试</dc:title><dc:language>zh</dc:language><meta property="dcterms:modified">2026-12-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml" properties="scripted"/><item id="js" href="evil.js" media-type="application/javascript"/></manifest><spine><itemref idref="c1"/></spine></package>`,
    ],
    [
      'OEBPS/nav.xhtml',
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>目录</title></head><body><nav epub:type="toc"><ol><li><a href="c1.xhtml#c1">不会运行的脚本</a></li></ol></nav></body></html>`,
    ],
    ['OEBPS/c1.xhtml', chapter],
    ['OEBPS/evil.js', "top.localStorage.setItem('reader-pwned','file');"],
  ]);
}

/** Stores `bytes` as the EPUB of a new published series' volume 1, as an upload would; answers the volume id. */
function storeBook(bytes: Buffer, name: string): number {
  const { db, dataDir } = openDb();
  try {
    const at = new Date().toISOString();
    const next = (counter: string) =>
      Number(
        (
          db.prepare('UPDATE counter SET value = value + 1 WHERE name = ? RETURNING value').get(counter) as {
            value: number | bigint;
          }
        ).value,
      );
    const seriesId = next('lightnovel_id');
    const volumeId = next('volume_id');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const key = `lightnovel/epub/${volumeId}/${sha}.epub`;
    const file = path.join(dataDir, 'media', key);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, bytes, { mode: 0o600 });
    db.prepare(
      `INSERT INTO lightnovel (id, name, status, created_at, updated_at) VALUES (?, ?, 'published', ?, ?)`,
    ).run(BigInt(seriesId), name, at, at);
    db.prepare(
      `INSERT INTO lightnovel_volume (id, lightnovel_id, number, title, epub_key, epub_size, created_at, updated_at)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?)`,
    ).run(BigInt(volumeId), BigInt(seriesId), name, key, BigInt(bytes.length), at, at);
    return volumeId;
  } finally {
    db.close();
  }
}

// The EPUB reader in Chromium: reading a demo volume and picking it up on another device, a phone,
// a vertical book, the error page's way back, and a hostile book whose scripts never run.

/** The book's sections on show: foliate renders each in a blob: frame inside its closed shadow root. */
const bookFrames = (page: Page) => page.frames().filter((f) => f !== page.mainFrame() && f.url().startsWith('blob:'));
const percentNumber = (text: string) => Number(text.replace(/[^\d.]/g, ''));
/** foliate ignores a turn while the previous one still slides: let it settle. */
const settle = (page: Page) => page.waitForTimeout(400);

async function openReader(page: Page, volumeId: number) {
  await page.goto(`/lightnovel/read?volumeId=${volumeId}`);
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
}

const percentageOf = async (page: Page) => (await page.getByTestId('reader-percentage').textContent())?.trim() ?? '';
const chapterOf = async (page: Page) =>
  ((await page.getByTestId('reader-chapter').textContent()) ?? '').replace(/^当前章节:\s*/, '').trim();

async function memberContext(browser: Browser, jumpTo: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logInAsDemo(page, jumpTo);
  return { context, page };
}

test('a member reads a few pages, changes type and theme, and lands on the same place on another device', async ({
  browser,
}) => {
  const volumeId = demoVolumeId(3);
  const first = await memberContext(browser, `/lightnovel/read?volumeId=${volumeId}`);
  const page = first.page;
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('reader-title')).toContainText('终点站的猫');
  for (let i = 0; i < 4; i += 1) {
    const before = await percentageOf(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => percentageOf(page)).not.toBe(before);
    await settle(page);
  }
  await page.getByTestId('reader-open-settings').click();
  const size = page.getByTestId('reader-font-size');
  const startSize = Number(await size.textContent());
  await page.getByTestId('reader-font-size-more').click();
  await expect(size).toHaveText(String(startSize + 2));
  await page.getByTestId('reader-theme-sepia').click();
  await expect(page.getByTestId('reader')).toHaveAttribute('data-theme', 'sepia');
  await page.keyboard.press('Escape');
  const beforeDown = await percentageOf(page);
  await page.keyboard.press('PageDown');
  await expect.poll(() => percentageOf(page)).not.toBe(beforeDown);
  await settle(page);
  const chapter = await chapterOf(page);
  const percentage = await percentageOf(page);
  expect(chapter).not.toMatch(/无章节名/);
  // Leaving the page saves the position (keepalive): the server has it before the other device opens.
  await page.getByRole('link', { name: '返回本卷' }).click();
  const token = (await first.context.cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '';
  await expect
    .poll(async () => {
      const answer = await first.context.request.get(`/api/lightnovel/progress/${volumeId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const position = (
        (await answer.json()) as { data?: { position?: { chapter: string; percentage: number } | null } }
      ).data?.position;
      const shown = new Intl.NumberFormat('zh-CN', { style: 'percent', maximumFractionDigits: 1 });
      return position ? `${position.chapter} ${shown.format(position.percentage / 10_000)}` : '';
    })
    .toBe(`${chapter} ${percentage}`);
  await first.context.close();

  const second = await memberContext(browser, `/lightnovel/read?volumeId=${volumeId}`);
  await expect(second.page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => chapterOf(second.page)).toBe(chapter);
  // The same place; its percentage moves a little with this device's own type size.
  expect(Math.abs(percentNumber(await percentageOf(second.page)) - percentNumber(percentage))).toBeLessThan(3);
  // Settings are this device's: the other browser keeps its own theme.
  await expect(second.page.getByTestId('reader')).toHaveAttribute('data-theme', 'light');
  await second.context.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the bars are hidden while reading; the side thirds turn pages and the middle shows the bars', async ({
    page,
  }) => {
    await openReader(page, demoVolumeId(3));
    const reader = page.getByTestId('reader');
    await expect(reader).toHaveAttribute('data-chrome', 'hidden');
    await expect.poll(() => bookFrames(page).length).toBeGreaterThan(0);
    const before = await percentageOf(page);
    await page.mouse.click(370, 420);
    await expect.poll(() => percentageOf(page)).not.toBe(before);
    await settle(page);
    const text = await percentageOf(page);
    await page.mouse.click(20, 420);
    await expect.poll(() => percentageOf(page)).toBe(before);
    await settle(page);
    // Back to a page of text (a tap on the cover's picture previews it instead).
    await page.mouse.click(370, 420);
    await expect.poll(() => percentageOf(page)).toBe(text);
    await settle(page);
    await page.mouse.click(195, 420);
    await expect(reader).toHaveAttribute('data-chrome', 'shown');
    await expect(page.getByTestId('reader-top')).toBeInViewport();
    await page.mouse.click(195, 420);
    await expect(reader).toHaveAttribute('data-chrome', 'hidden');
  });
});

test('a vertical book is laid out top to bottom and its pages turn right to left', async ({ page }) => {
  await openReader(page, demoVolumeId(2));
  const before = await percentageOf(page);
  // In a right-to-left book the left arrow goes forward.
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => percentageOf(page)).not.toBe(before);
  const modes = await Promise.all(
    bookFrames(page).map((frame) => frame.evaluate(() => getComputedStyle(document.documentElement).writingMode)),
  );
  expect(modes).toContain('vertical-rl');
});

test("an error on the reader's path offers the way back to the volume being read", async ({ page }) => {
  const volumeId = demoVolumeId(3);
  await openReader(page, volumeId);
  await page.goto('/lightnovel/read?volumeId=999999');
  await expect(page.getByTestId('error-page')).toBeVisible();
  const back = page.getByRole('link', { name: '返回阅读页' });
  await expect(back).toHaveAttribute('href', `/lightnovel/volumes/${volumeId}`);
});

test('a book with scripts renders, and none of them runs', async ({ page, context }) => {
  const volumeId = storeBook(await hostileEpub(), '脚本测试');
  // The outside page, answered here (the tests have no network).
  await context.route('https://example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>outside</title>' }),
  );
  await openReader(page, volumeId);
  await expect.poll(() => chapterOf(page)).toContain('不会运行的脚本');
  const frames = bookFrames(page);
  const frameText = (await Promise.all(frames.map((f) => f.evaluate(() => document.body?.innerText ?? '')))).join('\n');
  expect(frameText).toContain('这一章藏着脚本');
  // What is left in the rendered section: no script elements, no handlers, no javascript: URLs.
  const leftovers = await Promise.all(
    frames.map((f) =>
      f.evaluate(() => ({
        scripts: document.querySelectorAll('script').length,
        handlers: [...document.querySelectorAll('*')].filter((el) =>
          [...el.attributes].some((a) => /^on/i.test(a.name)),
        ).length,
        // As a browser reads a URL: tabs, newlines and leading spaces do not count.
        jsLinks: [...document.querySelectorAll('a')].filter((a) =>
          /^javascript:/i.test((a.getAttribute('href') ?? '').replace(/[\u0000-\u0020]/g, '')),
        ).length,
      })),
    ),
  );
  for (const left of leftovers) expect(left).toEqual({ scripts: 0, handlers: 0, jsLinks: 0 });
  // Clicking the links runs nothing and never moves the reader; the web link opens a new tab.
  const frame = frames.find((f) => f.url().startsWith('blob:'));
  expect(frame).toBeTruthy();
  await frame!.locator('#js-link').click();
  await frame!.locator('#tab-link').click();
  const popup = context.waitForEvent('page');
  await frame!.locator('#out-link').click();
  const tab = await popup;
  expect(tab.url()).toContain('example.com/outside');
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();
  await expect(page).toHaveURL(new RegExp(`/lightnovel/read\\?volumeId=${volumeId}$`));
  expect(await page.evaluate(() => localStorage.getItem('reader-pwned'))).toBeNull();
  // The page's policy is what stops them, whatever the cleaning missed.
  const policy = (await page.request.get(`/lightnovel/read?volumeId=${volumeId}`)).headers()['content-security-policy'];
  expect(policy).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
  expect(policy).not.toContain("unsafe-inline' ;");
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
});

test('a member bookmarks a place with a note, edits it, jumps back to it and deletes it', async ({ browser }) => {
  const volumeId = demoVolumeId(3);
  const { context, page } = await memberContext(browser, `/lightnovel/read?volumeId=${volumeId}`);
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => chapterOf(page)).not.toMatch(/无章节名/);
  await settle(page);
  const chapter = await chapterOf(page);
  await page.getByTestId('reader-open-bookmarks').click();
  const panel = page.getByTestId('reader-panel-bookmarks');
  await panel.getByLabel('笔记').fill('猫第一次出场');
  await panel.getByTestId('reader-bookmark-add').click();
  const bookmark = panel.getByTestId('reader-bookmark');
  await expect(bookmark).toHaveCount(1);
  await expect(bookmark).toContainText(chapter);
  await expect(bookmark).toContainText('猫第一次出场');
  await bookmark.getByRole('button', { name: '编辑笔记' }).click();
  await bookmark.getByLabel('笔记').fill('终点第一次出场');
  await bookmark.getByRole('button', { name: '保存' }).click();
  await expect(bookmark).toContainText('终点第一次出场');
  await page.keyboard.press('Escape');
  // Read on, then jump back to the bookmark.
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('ArrowRight');
    await settle(page);
  }
  await expect.poll(() => chapterOf(page)).not.toBe(chapter);
  await page.getByTestId('reader-open-bookmarks').click();
  await page.getByRole('button', { name: `跳到书签：${chapter}` }).click();
  await expect.poll(() => chapterOf(page)).toBe(chapter);
  await page.getByTestId('reader-open-bookmarks').click();
  await panel.getByRole('button', { name: '删除书签' }).click();
  await expect(panel.getByTestId('reader-bookmark')).toHaveCount(0);
  await expect(panel).toContainText('这一卷还没有书签');
  await context.close();
});

test('contents mark the current chapter and jump; scrolling mode reads on; a picture opens in the preview', async ({
  page,
}) => {
  await openReader(page, demoVolumeId(1));
  await page.getByTestId('reader-open-toc').click();
  const toc = page.getByTestId('reader-toc');
  const entries = toc.getByRole('button');
  expect(await entries.count()).toBeGreaterThan(2);
  const target = entries.nth(2);
  const label = ((await target.textContent()) ?? '').trim();
  await target.click();
  await expect.poll(() => chapterOf(page)).toBe(label);
  await page.getByTestId('reader-open-toc').click();
  await expect(toc.locator('[aria-current="true"]')).toHaveText(label);
  await page.keyboard.press('Escape');

  await page.getByTestId('reader-open-settings').click();
  await page.getByTestId('reader-flow-scrolled').click();
  await expect(page.getByTestId('reader')).toHaveAttribute('data-flow', 'scrolled');
  await page.keyboard.press('Escape');
  const before = await percentageOf(page);
  await page.keyboard.press('PageDown');
  await expect.poll(() => percentageOf(page)).not.toBe(before);

  // The first illustration of the book, clicked inside its section, opens the site's image preview.
  await page.getByTestId('reader-open-settings').click();
  await page.getByTestId('reader-flow-paginated').click();
  await page.keyboard.press('Escape');
  let frame = bookFrames(page).find((f) => f.url().startsWith('blob:'));
  for (let turns = 0; turns < 40; turns += 1) {
    frame =
      (await Promise.all(bookFrames(page).map(async (f) => ((await f.locator('img').count()) > 0 ? f : null)))).find(
        (f) => f !== null,
      ) ?? undefined;
    if (frame) break;
    await page.keyboard.press('ArrowRight');
    await settle(page);
  }
  expect(frame, 'a section with an illustration').toBeTruthy();
  await frame!.locator('img').first().click({ force: true });
  await expect(page.getByRole('dialog')).toBeVisible();
});

test("a visitor's place is kept on this device and the bookmarks ask for a login", async ({ page }) => {
  const volumeId = demoVolumeId(3);
  await openReader(page, volumeId);
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('ArrowRight');
    await settle(page);
  }
  const chapter = await chapterOf(page);
  await page.reload();
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => chapterOf(page)).toBe(chapter);
  await page.getByTestId('reader-open-bookmarks').click();
  await expect(page.getByTestId('reader-bookmarks-login')).toBeVisible();
  await expect(page.getByRole('link', { name: '去登录' })).toHaveAttribute(
    'href',
    `/login?jumpTo=${encodeURIComponent(`/lightnovel/read?volumeId=${volumeId}`)}`,
  );
});

test('the reading history belongs to its owner: the list with a way back into the book, a notice for anyone else', async ({
  browser,
}) => {
  const volumeId = demoVolumeId(3);
  const { context, page } = await memberContext(browser, `/lightnovel/read?volumeId=${volumeId}`);
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await page.keyboard.press('ArrowRight');
  await settle(page);
  await page.goto('/space/1/read');
  const item = page
    .getByTestId('space-reading-item')
    .filter({ has: page.locator(`[href="/lightnovel/read?volumeId=${volumeId}"]`) });
  await expect(item).toContainText('终点站的猫');
  await expect(page.getByTestId('space-tab-link-read')).toHaveAttribute('aria-current', 'page');
  await item.getByTestId('space-reading-continue').click();
  await expect(page).toHaveURL(new RegExp(`/lightnovel/read\\?volumeId=${volumeId}$`));
  await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
  await context.close();

  const visitor = await browser.newPage();
  const answer = await visitor.goto('/space/1/read');
  expect(answer?.status()).toBe(403);
  await expect(visitor.getByTestId('space-read-private')).toContainText('阅读记录仅自己可见');
  await expect(visitor.getByTestId('space-reading')).toHaveCount(0);
  await expect(visitor.getByTestId('space-tab-link-read')).toHaveCount(0);
  await visitor.close();
});

/** Puts the demo member's position in a volume through the API, from a page of the site. */
async function putPosition(
  page: Page,
  volumeId: number,
  cfi: string,
  percentage: number,
  at = new Date().toISOString(),
): Promise<number> {
  const token = (await page.context().cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '';
  return page.evaluate(
    async ({ volumeId, cfi, percentage, token, at }) => {
      const answer = await fetch(`/api/lightnovel/progress/${volumeId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ cfi, chapter: '', percentage, at }),
      });
      return answer.status;
    },
    { volumeId, cfi, percentage, token, at },
  );
}

async function storedPosition(page: Page, volumeId: number): Promise<{ cfi: string; percentage: number } | null> {
  const token = (await page.context().cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '';
  return page.evaluate(
    async ({ volumeId, token }) => {
      const answer = await fetch(`/api/lightnovel/progress/${volumeId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await answer.json()) as { data?: { position?: { cfi: string; percentage: number } | null } };
      return body.data?.position ?? null;
    },
    { volumeId, token },
  );
}

test('a stored position outside the book opens it at the beginning, with no error, and is replaced', async ({
  browser,
}) => {
  const volumeId = demoVolumeId(1);
  const { context, page } = await memberContext(browser, `/lightnovel/volumes/${volumeId}`);
  // No such section; then a section that exists with a path inside it that does not.
  for (const bad of ['epubcfi(/6/400!/4/2)', 'epubcfi(/6/4!/4/2000/8/2:5)']) {
    expect(await putPosition(page, volumeId, bad, 4200)).toBe(200);
    await openReader(page, volumeId);
    await expect(page.getByText('正在打开这本书…')).toHaveCount(0);
    await page.waitForTimeout(1500);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText(/TypeError|undefined/)).toHaveCount(0);
    await expect.poll(async () => (await storedPosition(page, volumeId))?.cfi).not.toBe(bad);
    await page.goto(`/lightnovel/volumes/${volumeId}`);
  }
  await context.close();
});

test('a tab left open does not save over a newer position from another device: it offers to continue there', async ({
  browser,
}) => {
  const volumeId = demoVolumeId(3);
  const { context, page } = await memberContext(browser, `/lightnovel/volumes/${volumeId}`);
  await openReader(page, volumeId);
  const before = await percentageOf(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => percentageOf(page)).not.toBe(before);
  await settle(page);
  await expect.poll(async () => (await storedPosition(page, volumeId))?.percentage ?? 0).toBeGreaterThan(0);
  // Another device reads on to the end; this tab is hidden meanwhile and shown again.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForTimeout(300);
  // The last of its six chapters (the spine is the cover, then the chapters).
  expect(await putPosition(page, volumeId, 'epubcfi(/6/14!/4)', 9800)).toBe(200);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const notice = page.getByTestId('reader-newer');
  await expect(notice).toContainText('98%');
  // A page turned meanwhile saves nothing over it.
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(800);
  expect((await storedPosition(page, volumeId))?.percentage).toBe(9800);
  await page.getByTestId('reader-newer-continue').click();
  await expect(notice).toHaveCount(0);
  await expect.poll(async () => percentNumber(await percentageOf(page))).toBeGreaterThan(60);
  await context.close();
});

test("a visitor's place on this browser is neither opened at nor saved for a member who logs in here", async ({
  page,
}) => {
  const volumeId = demoVolumeId(2);
  await openReader(page, volumeId);
  const start = await percentageOf(page);
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('ArrowLeft');
    await settle(page);
  }
  const visitorPlace = await percentageOf(page);
  expect(visitorPlace).not.toBe(start);
  await page.goto(`/lightnovel/volumes/${volumeId}`);
  await logInAsDemo(page, `/lightnovel/volumes/${volumeId}`);
  // The member's own place, older than the visitor's: the cover, where the book opens.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  expect(await putPosition(page, volumeId, 'epubcfi(/6/2!/4)', 0, yesterday)).toBe(200);
  await openReader(page, volumeId);
  await expect.poll(() => percentageOf(page)).toBe(start);
  expect(await percentageOf(page)).not.toBe(visitorPlace);
  // What the member saves from here is the member's own place, not the visitor's.
  await expect.poll(async () => (await storedPosition(page, volumeId))?.percentage).toBeLessThan(500);
});
