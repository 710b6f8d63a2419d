import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { DEMO, DEMO_CREATOR, logInAsDemo } from './support/demo-login.ts';

// The page cache on the real server (all its processes): visitors share cached HTML, members get their
// own catalogue pages and share a copy of the community's, a rating drops the game's pages everywhere
// within a second.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET on a new connection each time, so the requests spread over the server's processes. */
function visit(baseURL: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { ...headers, Connection: 'close' }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Visits until every one of `rounds` requests in a row is answered from the cache (all processes warm).
 * Each process renders its own copy (a view count may differ), so `etags` holds every ETag seen.
 */
async function warm(
  baseURL: string,
  path: string,
  headers: Record<string, string> = {},
  rounds = 6,
): Promise<Answer & { etags: string[] }> {
  let last: Answer | undefined;
  for (let attempt = 0; attempt < 50; attempt++) {
    const answers = [];
    for (let i = 0; i < rounds; i++) answers.push(await visit(baseURL, path, headers));
    last = answers.at(-1);
    if (answers.every((a) => a.headers['x-cache'] === 'HIT')) {
      return { ...(last as Answer), etags: [...new Set(answers.map((a) => String(a.headers['etag'])))] };
    }
  }
  throw new Error(`${path} never came from the cache: ${JSON.stringify(last?.headers)}`);
}

test('visitors share the cached page; members get their own, and a rating drops it everywhere', async ({
  baseURL,
  request,
}) => {
  const base = baseURL ?? '';
  const list = await visit(base, '/galgame/list');
  const [id, otherId] = [...new Set([...list.body.matchAll(/href="\/galgame\/(\d+)"/g)].map((m) => Number(m[1])))];
  expect(id).toBeGreaterThan(0);
  expect(otherId).toBeGreaterThan(0);
  const path = `/galgame/${id}`;
  const otherPath = `/galgame/${otherId}`;

  const cached = await warm(base, path);
  await warm(base, otherPath);
  expect(cached.status).toBe(200);
  expect(cached.headers['cache-control']).toContain('s-maxage=');
  expect(cached.headers['set-cookie']).toBeUndefined();
  expect(cached.headers['vary']).toContain('Cookie');
  // The browser's copy is confirmed with a 304 (whichever process answers: it names every copy it has seen).
  // A 200 is only right from a process whose copy was not seen yet; its ETag joins the list.
  let confirmed = 0;
  for (let i = 0; i < 12 && confirmed < 4; i++) {
    const answer = await visit(base, path, { 'If-None-Match': cached.etags.join(', ') });
    if (answer.status === 304) confirmed++;
    else {
      expect(cached.etags).not.toContain(String(answer.headers['etag']));
      cached.etags.push(String(answer.headers['etag']));
    }
  }
  expect(confirmed).toBe(4);
  const etags = cached.etags.join(', ');

  // A member: logged in through the API, carrying the cookies the site's client keeps.
  const login = await request.post('/api/v2/user/login', { data: DEMO });
  expect(login.ok()).toBeTruthy();
  const session = ((await login.json()) as { data: { hikariAccessToken: string; hikariRefreshToken: string } }).data;
  const cookie = `hikari-access-token=${session.hikariAccessToken}; hikari-refresh-token=${session.hikariRefreshToken}`;
  const own = await visit(base, path, { Cookie: cookie });
  expect(own.status).toBe(200);
  expect(own.headers['x-cache']).toBeUndefined();
  expect(own.headers['cache-control']).toBe('private, no-cache');
  expect((await visit(base, path, { Cookie: cookie, 'If-None-Match': etags })).status).toBe(200);

  // The member rates the game; within a second no process answers the old page any more.
  const auth = { Authorization: `Bearer ${session.hikariAccessToken}` };
  const previous = (
    (await (await request.get(`/api/galgame/${id}/rating`, { headers: auth })).json()) as {
      data: { rating: { score: number; status: string; text: string; spoiler: boolean } | null };
    }
  ).data.rating;
  const text = `page cache check ${Date.now()}`;
  // Warm the data members' renders share in every process (decision 015) before the change.
  for (let i = 0; i < 4; i++) expect((await visit(base, path, { Cookie: cookie })).body).not.toContain(text);
  const rated = await request.put(`/api/galgame/${id}/rating`, {
    headers: auth,
    data: { score: 8, status: 'playing', text },
  });
  expect(rated.ok()).toBeTruthy();
  const changedBy = Date.now() + 1000;
  let fresh = 0;
  while (fresh < 6) {
    const answer = await visit(base, path);
    fresh = cached.etags.includes(String(answer.headers['etag'])) ? 0 : fresh + 1;
    if (fresh === 0)
      expect(Date.now(), 'a process still answers the page from before the rating').toBeLessThan(changedBy);
  }
  // A member's page shows the new rating within the same second in every process, too.
  let shown = 0;
  while (shown < 6) {
    const answer = await visit(base, path, { Cookie: cookie });
    shown = answer.body.includes(text) ? shown + 1 : 0;
    if (shown === 0)
      expect(Date.now(), 'a process still renders the data from before the rating').toBeLessThan(changedBy);
  }
  // Only that game's pages were dropped: every process still has the other one.
  for (let i = 0; i < 6; i++) expect((await visit(base, otherPath)).headers['x-cache']).toBe('HIT');

  // Leave the demo account's rating as it was.
  if (previous) {
    const { score, status, text, spoiler } = previous;
    await request.put(`/api/galgame/${id}/rating`, { headers: auth, data: { score, status, text, spoiler } });
  } else {
    await request.delete(`/api/galgame/${id}/rating`, { headers: auth });
  }
});

test('a page for visitors carries no personal data and no cookie, in either language', async ({ baseURL }) => {
  const base = baseURL ?? '';
  for (const lang of ['zh-CN', 'en']) {
    const answer = await warm(base, '/galgame', { Cookie: `hikari_locale=${lang}` }, 2);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.body).toContain(`lang="${lang}"`);
    expect(answer.body).not.toContain(DEMO.account);
  }
});

test('members share one copy of a community page with nothing of theirs; the browser fills in who they are', async ({
  baseURL,
  request,
  page,
}) => {
  const base = baseURL ?? '';
  const login = await request.post('/api/v2/user/login', { data: DEMO_CREATOR });
  expect(login.ok()).toBeTruthy();
  const session = (
    (await login.json()) as {
      data: { hikariAccessToken: string; hikariRefreshToken: string; user: { _id: string } };
    }
  ).data;
  // The cookies the site's client keeps, the user info among them (its name must not reach the page).
  const cookie = [
    `hikari-access-token=${session.hikariAccessToken}`,
    `hikari-refresh-token=${session.hikariRefreshToken}`,
    `hikari-user-info=${encodeURIComponent(JSON.stringify(session.user))}`,
  ].join('; ');
  const front = await visit(base, '/community');
  const [postPath] = [...front.body.matchAll(/href="(\/community\/post\/\d+)"/g)].map((m) => m[1]);
  expect(postPath).toBeTruthy();
  for (const path of ['/community', String(postPath)]) {
    const member = await warm(base, path, { Cookie: cookie });
    expect(member.headers['cache-control']).toBe('private, no-cache');
    expect(member.body).toContain('data-testid="user-menu-placeholder"');
    // The header knows only that someone is logged in (the name can be on the page as an author).
    expect(member.body).toContain('&quot;initialUser&quot;:[0,&quot;member&quot;]');
    expect(member.body).not.toContain(session.user._id);
    expect(member.body).not.toContain(session.hikariAccessToken);
    // Another member gets the very same copy; a visitor gets the visitors' one.
    const visitor = await warm(base, path);
    expect(visitor.body).not.toContain('user-menu-placeholder');
    expect(visitor.etags.some((etag) => member.etags.includes(etag))).toBe(false);
  }

  // In the browser the avatar menu and the member's own controls arrive once the page has hydrated.
  await logInAsDemo(page, '/community', DEMO_CREATOR);
  await page.goto(String(postPath));
  await expect(page.getByTestId('user-menu-button')).toHaveAttribute('title', DEMO_CREATOR.account);
  await expect(page.getByTestId('user-menu-placeholder')).toHaveCount(0);
  await expect(page.getByTestId('comment-section')).toBeVisible();
  await expect(page.getByTestId('comment-login-prompt')).toHaveCount(0);
});
