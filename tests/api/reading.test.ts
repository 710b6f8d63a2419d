import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ProgressSaveResult,
  ReadingBookmark,
  ReadingHistoryPage,
  ReadingPosition,
} from '../../src/shared/lightnovel/reading.contract.ts';
import { BOOKMARKS_PER_VOLUME } from '../../src/shared/lightnovel/reading.contract.ts';
import type { Db } from '../../src/server/db/database.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { call, data, expectFailure } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const at = '2026-12-01T00:00:00.000Z';
const cfi = (n: number) => `epubcfi(/6/${2 * n}!/4/2/1:0)`;

/** A series with one volume straight in the database (the catalogue's writer is not tested here). */
async function addVolume(
  db: Db,
  options: { status?: 'published' | 'draft'; createdBy?: string; withoutEpub?: boolean } = {},
) {
  const seriesId = await db.transaction().execute((trx) => nextId(trx, 'lightnovel_id'));
  await db
    .insertInto('lightnovel')
    .values({
      id: seriesId,
      name: `終着駅の猫 ${seriesId}`,
      name_zh: `终点站的猫 ${seriesId}`,
      status: options.status ?? 'published',
      created_by: options.createdBy ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const volumeId = await db.transaction().execute((trx) => nextId(trx, 'volume_id'));
  await db
    .insertInto('lightnovel_volume')
    .values({
      id: volumeId,
      lightnovel_id: seriesId,
      number: 1,
      title: `第${volumeId}卷`,
      cover: `/cover-${volumeId}.webp`,
      epub_key: options.withoutEpub ? '' : `lightnovel/${volumeId}.epub`,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { seriesId, volumeId };
}

// Reading progress, the reading history and bookmarks: a member's own, restored anywhere, with the
// later device time winning when two devices write at once.
describe('reading progress and bookmarks', () => {
  let app: TestApp;
  let db: Db;
  let count = 0;

  async function member(group: 'user' | 'editor' = 'user') {
    count += 1;
    const name = `rd_${count}_${Math.random().toString(36).slice(2, 6)}`;
    const user = await createUser(db, { name, email: `${name}@example.test`, passwordHash: 'x' });
    if (group !== 'user') await db.updateTable('users').set({ user_group: group }).where('id', '=', user.id).execute();
    return { id: user.id, token: await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group }) };
  }
  const getProgress = (token: string | undefined, volumeId: number | string) =>
    call<{ position: ReadingPosition | null }>(app, 'GET', `/lightnovel/progress/${volumeId}`, token);
  const putProgress = (token: string | undefined, volumeId: number | string, body: unknown) =>
    call<ProgressSaveResult>(app, 'PUT', `/lightnovel/progress/${volumeId}`, token, body);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
  });
  afterAll(async () => app.close());

  it('saves a position and gives it back on any device, with the series filled in', async () => {
    const reader = await member();
    const { seriesId, volumeId } = await addVolume(db);
    expect(data((await getProgress(reader.token, volumeId)).body).position).toBeNull();
    const saved = data(
      (await putProgress(reader.token, volumeId, { cfi: cfi(3), chapter: '第三章 雨', percentage: 4250 })).body,
    );
    expect(saved.stale).toBe(false);
    expect(saved.position).toMatchObject({ volumeId, lightnovelId: seriesId, cfi: cfi(3), percentage: 4250 });
    // A second login of the same member (another device) reads the same place.
    const again = await signAccessToken(app.ctx.config.jwtSecret, { id: reader.id, group: 'user' });
    expect(data((await getProgress(again, volumeId)).body).position).toMatchObject({
      cfi: cfi(3),
      chapter: '第三章 雨',
      percentage: 4250,
    });
    // Saving again moves it (one row a member and volume).
    await putProgress(reader.token, volumeId, { cfi: cfi(4), chapter: '第四章', percentage: 5000 });
    const rows = await db.selectFrom('reading_progress').selectAll().where('user_id', '=', reader.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ cfi: cfi(4), percentage: 5000 });
  });

  it('validates the position: CFI shape and length, chapter, percentage, time', async () => {
    const reader = await member();
    const { volumeId } = await addVolume(db);
    const bad = async (body: unknown) =>
      expectFailure(await putProgress(reader.token, volumeId, body), 400, 'VALIDATION_FAILED');
    await bad({ cfi: '/6/4!/4/2', percentage: 1 });
    await bad({ cfi: 'javascript:alert(1)', percentage: 1 });
    await bad({ cfi: `epubcfi(/6/4!/4/${'2/'.repeat(600)}1:0)`, percentage: 1 });
    await bad({ cfi: 'epubcfi(/6/4\u0000)', percentage: 1 });
    await bad({ cfi: cfi(1), percentage: 10001 });
    await bad({ cfi: cfi(1), percentage: -1 });
    await bad({ cfi: cfi(1), percentage: 12.5 });
    await bad({ cfi: cfi(1), percentage: '50' });
    await bad({ cfi: cfi(1), percentage: 1, chapter: 'x'.repeat(201) });
    await bad({ cfi: cfi(1), percentage: 1, chapter: '第一章\u0007' });
    await bad({ cfi: cfi(1), percentage: 1, at: 'yesterday' });
    expectFailure(await putProgress(reader.token, 'abc', { cfi: cfi(1), percentage: 1 }), 400, 'VALIDATION_FAILED');
    expect(await db.selectFrom('reading_progress').selectAll().where('user_id', '=', reader.id).execute()).toEqual([]);
  });

  it('answers 404 for an unknown volume and one of a series the member may not see', async () => {
    const reader = await member();
    const owner = await member();
    const draft = await addVolume(db, { status: 'draft', createdBy: owner.id });
    expectFailure(await putProgress(reader.token, 999_999, { cfi: cfi(1), percentage: 1 }), 404, 'NOT_FOUND');
    expectFailure(await getProgress(reader.token, 999_999), 404, 'NOT_FOUND');
    expectFailure(await putProgress(reader.token, draft.volumeId, { cfi: cfi(1), percentage: 1 }), 404, 'NOT_FOUND');
    // Its creator and the reviewers may read it.
    expect(data((await putProgress(owner.token, draft.volumeId, { cfi: cfi(1), percentage: 1 })).body).stale).toBe(
      false,
    );
    const editor = await member('editor');
    expect(data((await getProgress(editor.token, draft.volumeId)).body).position).toBeNull();
  });

  it('refuses visitors with 401 everywhere', async () => {
    const { volumeId } = await addVolume(db);
    expectFailure(await getProgress(undefined, volumeId), 401, 'UNAUTHORIZED');
    expectFailure(await putProgress(undefined, volumeId, { cfi: cfi(1), percentage: 1 }), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', '/lightnovel/progress'), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', `/lightnovel/bookmarks?volumeId=${volumeId}`), 401, 'UNAUTHORIZED');
    const body = { volumeId, cfi: cfi(1), percentage: 1 };
    expectFailure(await call(app, 'POST', '/lightnovel/bookmarks', undefined, body), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'PUT', '/lightnovel/bookmarks/1', undefined, { note: 'x' }), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'DELETE', '/lightnovel/bookmarks/1'), 401, 'UNAUTHORIZED');
  });

  it('keeps each member to their own position', async () => {
    const alice = await member();
    const bob = await member();
    const { volumeId } = await addVolume(db);
    await putProgress(alice.token, volumeId, { cfi: cfi(5), percentage: 6000 });
    expect(data((await getProgress(bob.token, volumeId)).body).position).toBeNull();
    await putProgress(bob.token, volumeId, { cfi: cfi(1), percentage: 100 });
    expect(data((await getProgress(alice.token, volumeId)).body).position).toMatchObject({ cfi: cfi(5) });
    const bobsHistory = data((await call<ReadingHistoryPage>(app, 'GET', '/lightnovel/progress', bob.token)).body);
    expect(bobsHistory.items.map((item) => item.cfi)).toEqual([cfi(1)]);
  });

  it('two devices at once: the later device time wins and the older write gets the stored position', async () => {
    const reader = await member();
    const { volumeId } = await addVolume(db);
    const now = Date.now();
    const later = { cfi: cfi(8), chapter: '第八章', percentage: 8000, at: new Date(now - 1000).toISOString() };
    const earlier = { cfi: cfi(2), chapter: '第二章', percentage: 2000, at: new Date(now - 5000).toISOString() };
    const answers = await Promise.all([
      putProgress(reader.token, volumeId, later),
      putProgress(reader.token, volumeId, earlier),
    ]);
    const [first, second] = answers.map((answer) => data(answer.body));
    expect(data((await getProgress(reader.token, volumeId)).body).position).toMatchObject({ cfi: cfi(8) });
    // Whichever arrives first, the later device time is never refused, and the older write either
    // landed before it or is told that it is stale and where the member really is.
    expect(first).toMatchObject({ stale: false, position: { cfi: cfi(8) } });
    expect(second?.position.cfi).toBe(second?.stale ? cfi(8) : cfi(2));
    // A stale write on its own is answered with the stored position.
    const stale = data((await putProgress(reader.token, volumeId, earlier)).body);
    expect(stale).toMatchObject({ stale: true, position: { cfi: cfi(8), percentage: 8000 } });
    // A device whose clock runs ahead cannot pin its position: its time is taken as the server's.
    const ahead = { cfi: cfi(9), percentage: 9000, at: new Date(now + 3_600_000).toISOString() };
    expect(data((await putProgress(reader.token, volumeId, ahead)).body).stale).toBe(false);
    const after = data((await putProgress(reader.token, volumeId, { cfi: cfi(10), percentage: 9500 })).body);
    expect(after).toMatchObject({ stale: false, position: { cfi: cfi(10) } });
  });

  it('lists the reading history newest first, page by page, with series, volume and cover', async () => {
    const reader = await member();
    const volumes = [await addVolume(db), await addVolume(db), await addVolume(db)];
    const base = Date.now() - 60_000;
    for (const [index, { volumeId }] of volumes.entries()) {
      const body = { cfi: cfi(index + 1), chapter: `第${index + 1}章`, percentage: 1000 * (index + 1) };
      await putProgress(reader.token, volumeId, { ...body, at: new Date(base + index * 1000).toISOString() });
    }
    // Reading the first again brings it to the top.
    await putProgress(reader.token, volumes[0]!.volumeId, { cfi: cfi(7), percentage: 7000 });
    const page1 = data((await call<ReadingHistoryPage>(app, 'GET', '/lightnovel/progress?limit=2', reader.token)).body);
    expect(page1.items.map((item) => item.volumeId)).toEqual([volumes[0]!.volumeId, volumes[2]!.volumeId]);
    expect(page1.pagination).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page1.items[0]).toMatchObject({
      seriesName: `终点站的猫 ${volumes[0]!.seriesId}`,
      volumeTitle: `第${volumes[0]!.volumeId}卷`,
      cover: `/cover-${volumes[0]!.volumeId}.webp`,
      percentage: 7000,
    });
    const page2 = data(
      (await call<ReadingHistoryPage>(app, 'GET', '/lightnovel/progress?page=2&limit=2', reader.token)).body,
    );
    expect(page2.items.map((item) => item.volumeId)).toEqual([volumes[1]!.volumeId]);
    expectFailure(await call(app, 'GET', '/lightnovel/progress?limit=500', reader.token), 400, 'VALIDATION_FAILED');
  });

  it('adds, lists, edits and deletes bookmarks; only their owner can', async () => {
    const alice = await member();
    const bob = await member();
    const { volumeId } = await addVolume(db);
    const add = (token: string, body: unknown) =>
      call<ReadingBookmark>(app, 'POST', '/lightnovel/bookmarks', token, body);
    const list = async (token: string) =>
      data((await call<ReadingBookmark[]>(app, 'GET', `/lightnovel/bookmarks?volumeId=${volumeId}`, token)).body);
    const late = await add(alice.token, {
      volumeId,
      cfi: cfi(6),
      chapter: '第六章',
      percentage: 6000,
      note: '再读一遍',
    });
    expect(late.res.status).toBe(201);
    const early = data((await add(alice.token, { volumeId, cfi: cfi(1), chapter: '序章', percentage: 500 })).body);
    expect((await list(alice.token)).map((b) => b.cfi)).toEqual([cfi(1), cfi(6)]);
    expect(await list(bob.token)).toEqual([]);
    // Someone else's bookmark is missing for them, whatever they try.
    const edit = (token: string, id: number, note: unknown) =>
      call<ReadingBookmark>(app, 'PUT', `/lightnovel/bookmarks/${id}`, token, { note });
    expectFailure(await edit(bob.token, early.id, '不是我的'), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'DELETE', `/lightnovel/bookmarks/${early.id}`, bob.token), 404, 'NOT_FOUND');
    expect(data((await edit(alice.token, early.id, '  开头的伏笔  ')).body).note).toBe('开头的伏笔');
    expectFailure(await edit(alice.token, early.id, 'x'.repeat(501)), 400, 'VALIDATION_FAILED');
    expectFailure(await edit(alice.token, early.id, '\u202Eevil'), 400, 'VALIDATION_FAILED');
    expect(data((await call(app, 'DELETE', `/lightnovel/bookmarks/${early.id}`, alice.token)).body)).toEqual({
      deleted: true,
    });
    expectFailure(await call(app, 'DELETE', `/lightnovel/bookmarks/${early.id}`, alice.token), 404, 'NOT_FOUND');
    expect((await list(alice.token)).map((b) => b.note)).toEqual(['再读一遍']);
    // Bad input and unknown volumes.
    expectFailure(await add(alice.token, { volumeId: '1', cfi: cfi(1), percentage: 1 }), 400, 'VALIDATION_FAILED');
    expectFailure(await add(alice.token, { volumeId, cfi: 'nope', percentage: 1 }), 400, 'VALIDATION_FAILED');
    expectFailure(await add(alice.token, { volumeId: 999_999, cfi: cfi(1), percentage: 1 }), 404, 'NOT_FOUND');
    expectFailure(await call(app, 'GET', '/lightnovel/bookmarks?volumeId=999999', alice.token), 404, 'NOT_FOUND');
  });

  it(`caps bookmarks at ${BOOKMARKS_PER_VOLUME} a member and volume`, async () => {
    const reader = await member();
    const other = await member();
    const { volumeId } = await addVolume(db);
    const rows = Array.from({ length: BOOKMARKS_PER_VOLUME - 1 }, (_, i) => ({
      id: 1_000_000 + count * 1000 + i,
      user_id: reader.id,
      volume_id: volumeId,
      cfi: cfi(i + 1),
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('reading_bookmark').values(rows).execute();
    const body = { volumeId, cfi: cfi(1), percentage: 1 };
    expect((await call(app, 'POST', '/lightnovel/bookmarks', reader.token, body)).res.status).toBe(201);
    expectFailure(await call(app, 'POST', '/lightnovel/bookmarks', reader.token, body), 409, 'CONFLICT');
    // The cap is per member: another member may still add here.
    expect((await call(app, 'POST', '/lightnovel/bookmarks', other.token, body)).res.status).toBe(201);
  });

  it('refuses positions and bookmarks in a volume without an EPUB', async () => {
    const reader = await member();
    const { volumeId } = await addVolume(db, { withoutEpub: true });
    const refused = await putProgress(reader.token, volumeId, { cfi: cfi(1), percentage: 1 });
    expectFailure(refused, 404, 'NOT_FOUND');
    expect(JSON.stringify(refused.body)).toContain('EPUB');
    const body = { volumeId, cfi: cfi(1), percentage: 1 };
    expectFailure(await call(app, 'POST', '/lightnovel/bookmarks', reader.token, body), 404, 'NOT_FOUND');
    const stored = await db
      .selectFrom('reading_progress')
      .select('volume_id')
      .where('volume_id', '=', volumeId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('keeps to the cap when one member adds several bookmarks at once', async () => {
    const reader = await member();
    const { volumeId } = await addVolume(db);
    const rows = Array.from({ length: BOOKMARKS_PER_VOLUME - 2 }, (_, i) => ({
      id: 2_000_000 + count * 1000 + i,
      user_id: reader.id,
      volume_id: volumeId,
      cfi: cfi(i + 1),
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('reading_bookmark').values(rows).execute();
    const body = { volumeId, cfi: cfi(1), percentage: 1 };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(app, 'POST', '/lightnovel/bookmarks', reader.token, body)),
    );
    expect(answers.filter((a) => a.res.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.res.status === 409)).toHaveLength(4);
    const total = await db
      .selectFrom('reading_bookmark')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', reader.id)
      .where('volume_id', '=', volumeId)
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(BOOKMARKS_PER_VOLUME);
  });
});
