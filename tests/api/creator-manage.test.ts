import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import {
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
} from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { deleteVolume, saveLightnovel, saveVolume } from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import { SEARCH_KINDS, bucketOfId, indexEntities } from '../../src/server/modules/search/search.index.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { ItemDocument } from '../../src/shared/creator/items.contract.ts';
import type { LookupHit, ManagePage } from '../../src/shared/creator/manage.contract.ts';
import type { LightnovelCardPage } from '../../src/shared/lightnovel/lightnovel.ts';
import type { SearchResultPage } from '../../src/shared/search/search-model.ts';
import { call, data, expectFailure, makeAccount } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The creator centre's manage API: lists of every editable type with their filters and visibility,
// the pickers' look-ups, publishing and unpublishing (lists and search follow), deleting a volume with
// its files, the role of every call, and hostile input.
describe('creator manage API', () => {
  let app: TestApp;
  let db: Db;
  const tokens: Partial<Record<UserGroup | 'owner', string>> = {};
  const ids: Record<string, number> = {};
  let ownerId = '';

  const member = (name: string, group: UserGroup) => makeAccount(app, name, group);
  const token = (who: UserGroup | 'owner') => tokens[who] ?? '';
  const list = async (who: UserGroup | 'owner', path: string) => {
    const answer = await call<ManagePage>(app, 'GET', `/creator/manage/${path}`, token(who));
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
    return data(answer.body);
  };
  const lookup = async (type: string, keyword: string, who: UserGroup = 'user') =>
    data(
      (
        await call<LookupHit[]>(
          app,
          'GET',
          `/creator/lookup/${type}?keyword=${encodeURIComponent(keyword)}`,
          token(who),
        )
      ).body,
    );
  const searchTotal = async (keyword: string, type: string) =>
    data((await call<SearchResultPage>(app, 'GET', `/search?keyword=${encodeURIComponent(keyword)}&type=${type}`)).body)
      .pagination.total;
  const inAllFacet = async (id: number) =>
    (await db.selectFrom('galgame_facet').select('galgame_id').where('galgame_id', '=', id).execute()).length > 0;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    for (const group of ['user', 'creator', 'editor', 'admin', 'superAdmin'] as const) {
      tokens[group] = (await member(`manage_${group}`, group)).token;
    }
    const owner = await member('manage_owner', 'creator');
    ownerId = owner.id;
    tokens.owner = owner.token;
    ids.person = await upsertPerson(db, { name: 'Kanon Sakurai', nameZh: '樱井花音' });
    ids.person2 = await upsertPerson(db, { name: 'Sakura Kanon', nameZh: '花音' });
    ids.character = await upsertCharacter(db, { name: 'Mio', nameZh: '澪' });
    ids.producer = await upsertProducer(db, { name: 'Moonstone 100%', nameZh: '月石' });
    ids.tag = await upsertTag(db, { name: 'Pure love', nameZh: '纯爱' });
    ids.game = await saveGalgame(db, { title: 'Summer Pockets', titleZh: '夏日口袋' });
    ids.draft = await saveGalgame(db, { title: 'Summer Draft', status: 'draft' });
    await db.updateTable('galgame').set({ created_by: ownerId }).where('id', '=', ids.draft).execute();
    ids.otherDraft = await saveGalgame(db, { title: 'Summer Secret', status: 'draft' });
    ids.series = await saveLightnovel(db, { name: 'Kino no Tabi', nameZh: '奇诺之旅' });
    ids.volume = await saveVolume(db, { lightnovelId: ids.series, number: 1, title: 'Kino 1' });
    ids.volume2 = await saveVolume(db, { lightnovelId: ids.series, number: 2, title: 'Kino 2' });
  });
  afterAll(async () => app?.close());

  it('lists games newest first with the keyword and status filters; members see published ones and their own', async () => {
    const editor = await list('editor', 'galgame?keyword=summer');
    expect(editor.items.map((r) => r.id)).toEqual([ids.otherDraft, ids.draft, ids.game]);
    expect(editor.canModerate).toBe(true);
    expect(editor.pagination).toMatchObject({ page: 1, total: 3 });
    const drafts = await list('admin', 'galgame?status=draft');
    expect(drafts.items.map((r) => r.id)).toEqual([ids.otherDraft, ids.draft]);
    expect(drafts.items[0]?.status).toBe('draft');
    const owner = await list('owner', 'galgame?keyword=SUMMER');
    expect(owner.items.map((r) => r.id)).toEqual([ids.draft, ids.game]);
    expect(owner.canModerate).toBe(false);
    const user = await list('user', 'galgame?keyword=summer');
    expect(user.items.map((r) => r.id)).toEqual([ids.game]);
    expect((await list('user', 'galgame?keyword=夏日')).items.map((r) => r.nameZh)).toEqual(['夏日口袋']);
  });

  it('lists series, volumes with their series, and entities to creators and above', async () => {
    expect((await list('user', 'lightnovel')).items.map((r) => r.id)).toEqual([ids.series]);
    const volumes = await list('user', 'volume?keyword=kino');
    expect(volumes.items.map((r) => [r.id, r.number, r.series?.id])).toEqual([
      [ids.volume2, 2, ids.series],
      [ids.volume, 1, ids.series],
    ]);
    expect((await list('creator', 'person?keyword=kanon')).items.map((r) => r.id)).toEqual([ids.person2, ids.person]);
    expect((await list('creator', 'character')).items.map((r) => r.name)).toEqual(['Mio']);
    expect((await list('creator', 'producer?keyword=100%25')).items.map((r) => r.id)).toEqual([ids.producer]);
    expect((await list('creator', 'tag?keyword=纯')).items.map((r) => r.id)).toEqual([ids.tag]);
    // LIKE's own characters are matched literally.
    expect((await list('creator', 'person?keyword=%25')).items).toEqual([]);
    expect((await list('creator', 'person?keyword=_')).items).toEqual([]);
  });

  it('pages a long list', async () => {
    for (let i = 0; i < 23; i++) await upsertPerson(db, { name: `Paging Person ${i}` });
    const first = await list('editor', 'person?keyword=paging');
    expect(first.items).toHaveLength(20);
    expect(first.pagination).toMatchObject({ page: 1, totalPages: 2, total: 23 });
    const second = await list('editor', 'person?keyword=paging&page=2');
    expect(second.items.map((r) => r.name)).toEqual(['Paging Person 2', 'Paging Person 1', 'Paging Person 0']);
    expect((await list('editor', 'person?keyword=paging&page=9')).items).toEqual([]);
  });

  it('looks up names for pickers: exact names first, at most 20, drafts only for those who may see them', async () => {
    const people = await lookup('person', 'kanon');
    expect(people.map((p) => p.id)).toEqual([ids.person, ids.person2]);
    expect(people[0]).toEqual({ id: ids.person, name: 'Kanon Sakurai', nameZh: '樱井花音', image: '' });
    expect((await lookup('person', '花音')).map((p) => p.id)).toEqual([ids.person2, ids.person]);
    expect((await lookup('person', 'paging')).length).toBe(20);
    expect((await lookup('tag', 'pure')).map((t) => t.id)).toEqual([ids.tag]);
    expect((await lookup('producer', 'moon')).map((t) => t.id)).toEqual([ids.producer]);
    expect((await lookup('character', '澪')).map((t) => t.id)).toEqual([ids.character]);
    expect((await lookup('lightnovel', '奇诺')).map((t) => t.id)).toEqual([ids.series]);
    expect((await lookup('galgame', 'summer')).map((t) => t.id)).toEqual([ids.game]);
    expect((await lookup('galgame', 'summer', 'editor')).map((t) => t.id)).toEqual([
      ids.game,
      ids.draft,
      ids.otherDraft,
    ]);
    expect(await lookup('person', '   ')).toEqual([]);
  });

  it('names entries by id for the relation lists', async () => {
    const answer = await call<LookupHit[]>(
      app,
      'GET',
      `/creator/names/person?ids=${ids.person},${ids.person2},99999`,
      token('user'),
    );
    expect(
      data(answer.body)
        .map((h) => h.name)
        .sort(),
    ).toEqual(['Kanon Sakurai', 'Sakura Kanon']);
    const tags = data((await call<LookupHit[]>(app, 'GET', `/creator/names/tag?ids=${ids.tag}`, token('user'))).body);
    expect(tags).toEqual([{ id: ids.tag, name: 'Pure love', nameZh: '纯爱', image: '' }]);
    expectFailure(await call(app, 'GET', '/creator/names/person?ids=1,,2', token('user')), 400, 'VALIDATION_FAILED');
    const many = Array.from({ length: 201 }, (_, i) => i + 1).join(',');
    expectFailure(await call(app, 'GET', `/creator/names/person?ids=${many}`, token('user')), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', `/creator/names/person?ids=1`), 401, 'UNAUTHORIZED');
  });

  it('publishes and unpublishes a game: lists, facets and search follow, and the audit log records it', async () => {
    expect(await searchTotal('Summer Pockets', 'galgame')).toBe(1);
    expect(await inAllFacet(ids.game!)).toBe(true);
    const off = await call(app, 'POST', `/creator/manage/galgame/${ids.game}/unpublish`, token('editor'));
    expect(off.res.status).toBe(200);
    expect(data(off.body)).toEqual({ id: ids.game, status: 'draft' });
    expect(await searchTotal('Summer Pockets', 'galgame')).toBe(0);
    expect(await inAllFacet(ids.game!)).toBe(false);
    expect((await list('user', 'galgame?keyword=summer')).items).toEqual([]);

    const on = await call(app, 'POST', `/creator/manage/galgame/${ids.game}/publish`, token('admin'));
    expect(data(on.body)).toEqual({ id: ids.game, status: 'published' });
    expect(await searchTotal('Summer Pockets', 'galgame')).toBe(1);
    expect(await inAllFacet(ids.game!)).toBe(true);
    // Publishing what is already published changes nothing and logs nothing.
    await call(app, 'POST', `/creator/manage/galgame/${ids.game}/publish`, token('admin'));
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_type', 'target_id'])
      .where('target_type', '=', 'galgame')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'item.unpublish', target_type: 'galgame', target_id: String(ids.game) },
      { action: 'item.publish', target_type: 'galgame', target_id: String(ids.game) },
    ]);
  });

  it("moves a linked person's search rank with the works they are in", async () => {
    const composer = await upsertPerson(db, { name: 'Rank Composer' });
    const game = await saveGalgame(db, { title: 'Rank Game', staff: [{ personId: composer, role: 'music' }] });
    const bucket = async () => {
      const row = await db
        .selectFrom('search_name')
        .select('id')
        .where('kind', '=', SEARCH_KINDS.person)
        .where('item_id', '=', composer)
        .where('field', '=', 0)
        .executeTakeFirstOrThrow();
      return bucketOfId(Number(row.id));
    };
    await indexEntities(db, 'person', [composer]);
    const published = await bucket();
    expect(published).toBeGreaterThan(0);
    await call(app, 'POST', `/creator/manage/galgame/${game}/unpublish`, token('editor'));
    expect(await bucket()).toBe(0);
    await call(app, 'POST', `/creator/manage/galgame/${game}/publish`, token('editor'));
    expect(await bucket()).toBe(published);
  });

  it('publishes and unpublishes a series: the public list and search follow', async () => {
    const publicNames = async () =>
      data((await call<LightnovelCardPage>(app, 'GET', '/lightnovel/list')).body).items.map((s) => s.id);
    expect(await publicNames()).toContain(ids.series);
    await call(app, 'POST', `/creator/manage/lightnovel/${ids.series}/unpublish`, token('superAdmin'));
    expect(await publicNames()).not.toContain(ids.series);
    expect(await searchTotal('奇诺之旅', 'novel')).toBe(0);
    await call(app, 'POST', `/creator/manage/lightnovel/${ids.series}/publish`, token('editor'));
    expect(await publicNames()).toContain(ids.series);
    expect(await searchTotal('奇诺之旅', 'novel')).toBe(1);
  });

  it("opens a series' document with its volumes in reading order, each to edit on its own page", async () => {
    const extra = await saveVolume(db, {
      lightnovelId: Number(ids.series),
      kind: 'extra',
      number: 1,
      title: 'Kino SS',
    });
    const answer = await call<ItemDocument>(app, 'GET', `/creator/items/lightnovel/${ids.series}`, token('user'));
    expect(answer.res.status).toBe(200);
    expect(data(answer.body).volumes).toEqual([
      { id: ids.volume, kind: 'main', number: 1, title: 'Kino 1', titleZh: '', hasEpub: false },
      { id: ids.volume2, kind: 'main', number: 2, title: 'Kino 2', titleZh: '', hasEpub: false },
      { id: extra, kind: 'extra', number: 1, title: 'Kino SS', titleZh: '', hasEpub: false },
    ]);
    // Other types carry none.
    const game = await call<ItemDocument>(app, 'GET', `/creator/items/galgame/${ids.game}`, token('user'));
    expect(data(game.body).volumes).toEqual([]);
    await deleteVolume(db, extra);
  });

  it('deletes a volume with its EPUB file and audits it', async () => {
    const key = `lightnovel/epub/${ids.volume2}/test.epub`;
    await app.ctx.storage.put(key, new TextEncoder().encode('not really a book'), 'application/epub+zip');
    await db
      .updateTable('lightnovel_volume')
      .set({ epub_key: key, epub_size: 17 })
      .where('id', '=', ids.volume2!)
      .execute();
    const answer = await call(app, 'DELETE', `/creator/manage/volume/${ids.volume2}`, token('editor'));
    expect(answer.res.status).toBe(200);
    expect(data(answer.body)).toEqual({ id: ids.volume2, lightnovelId: ids.series });
    expect(await app.ctx.storage.get(key)).toBeNull();
    const row = await db.selectFrom('lightnovel_volume').select('id').where('id', '=', ids.volume2!).executeTakeFirst();
    expect(row).toBeUndefined();
    const series = await db
      .selectFrom('lightnovel')
      .select('volume_count')
      .where('id', '=', ids.series!)
      .executeTakeFirst();
    expect(series?.volume_count).toBe(1);
    const audit = await db.selectFrom('audit_log').select('action').where('target_type', '=', 'volume').execute();
    expect(audit.map((a) => a.action)).toEqual(['item.delete']);
    expectFailure(
      await call(app, 'DELETE', `/creator/manage/volume/${ids.volume2}`, token('editor')),
      404,
      'NOT_FOUND',
    );
  });

  it('checks the role of every call on the server', async () => {
    const staffOnly: [string, string][] = [
      ['POST', `/creator/manage/galgame/${ids.game}/unpublish`],
      ['POST', `/creator/manage/galgame/${ids.game}/publish`],
      ['POST', `/creator/manage/lightnovel/${ids.series}/unpublish`],
      ['DELETE', `/creator/manage/volume/${ids.volume}`],
    ];
    for (const [method, path] of staffOnly) {
      expectFailure(await call(app, method, path), 401, 'UNAUTHORIZED');
      for (const who of ['user', 'creator', 'owner'] as const) {
        expectFailure(await call(app, method, path, token(who)), 403, 'FORBIDDEN');
      }
    }
    for (const type of ['person', 'character', 'producer', 'tag']) {
      expectFailure(await call(app, 'GET', `/creator/manage/${type}`, token('user')), 403, 'FORBIDDEN');
      expect((await call(app, 'GET', `/creator/manage/${type}`, token('creator'))).res.status).toBe(200);
    }
    for (const type of ['galgame', 'lightnovel', 'volume']) {
      expect((await call(app, 'GET', `/creator/manage/${type}`, token('user'))).res.status).toBe(200);
    }
    expectFailure(await call(app, 'GET', '/creator/manage/galgame'), 401, 'UNAUTHORIZED');
    expectFailure(await call(app, 'GET', '/creator/lookup/person?keyword=a'), 401, 'UNAUTHORIZED');
    // Nothing changed by the refused calls.
    expect((await db.selectFrom('lightnovel_volume').select('id').where('id', '=', ids.volume!).execute()).length).toBe(
      1,
    );
    const game = await db.selectFrom('galgame').select('status').where('id', '=', ids.game!).executeTakeFirst();
    expect(game?.status).toBe('published');
  });

  it('refuses hostile input with a stable code', async () => {
    const bad: [string, string, number, string][] = [
      ['GET', '/creator/manage/users', 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/manage/galgame?status=deleted', 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/manage/galgame?page=0', 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/manage/galgame?page=abc', 400, 'VALIDATION_FAILED'],
      ['GET', `/creator/manage/galgame?keyword=${'x'.repeat(101)}`, 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/manage/galgame?keyword=a%00b', 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/lookup/person', 400, 'VALIDATION_FAILED'],
      ['GET', '/creator/lookup/users?keyword=a', 400, 'VALIDATION_FAILED'],
      ['POST', '/creator/manage/volume/1/publish', 400, 'VALIDATION_FAILED'],
      ['POST', '/creator/manage/person/1/publish', 400, 'VALIDATION_FAILED'],
      ['POST', '/creator/manage/galgame/0/publish', 400, 'VALIDATION_FAILED'],
      ['POST', '/creator/manage/galgame/1e3/publish', 400, 'VALIDATION_FAILED'],
      ['POST', '/creator/manage/galgame/99999999/publish', 404, 'NOT_FOUND'],
      ['DELETE', '/creator/manage/volume/-1', 400, 'VALIDATION_FAILED'],
    ];
    for (const [method, path, status, code] of bad) {
      const answer = await call(app, method, path, token('editor'));
      expect([path, answer.res.status]).toEqual([path, status]);
      expectFailure(answer, status, code as 'VALIDATION_FAILED');
    }
  });
});
