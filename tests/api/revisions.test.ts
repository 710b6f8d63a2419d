import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import {
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
} from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { saveLightnovel, saveVolume } from '../../src/server/modules/lightnovel/lightnovel.writer.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { EditType } from '../../src/shared/creator/creator-model.ts';
import type { EditDoc, GalgameDoc, VolumeDoc } from '../../src/shared/creator/docs.ts';
import type {
  EditConflict,
  ItemDocument,
  RevisionDetail,
  RevisionPage,
  SaveOutcome,
} from '../../src/shared/creator/items.contract.ts';
import { call, data, expectFailure, makeAccount } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// Revisions over HTTP: every editable type read and written back through its document, direct saves
// by editors (merged field by field, 409 on a real conflict, exact numbers under concurrency), the
// history and its diffs, restore by admins (audited), and who may do each.
describe('catalogue revisions API', () => {
  let app: TestApp;
  let db: Db;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};

  async function member(name: string, group: UserGroup) {
    tokens[group] = (await makeAccount(app, name, group)).token;
  }
  const open = async (type: EditType, id: number, group: UserGroup = 'editor') =>
    data((await call<ItemDocument>(app, 'GET', `/creator/items/${type}/${id}`, tokens[group])).body);
  const save = (type: EditType, id: number, body: unknown, group: UserGroup = 'editor') =>
    call<SaveOutcome>(app, 'PUT', `/creator/items/${type}/${id}`, tokens[group], body);
  const edit = async (type: EditType, id: number, change: Partial<Record<string, unknown>>, overwrite?: string[]) => {
    const doc = await open(type, id);
    return save(type, id, {
      doc: { ...doc.doc, ...change },
      baseRevision: doc.revision,
      ...(overwrite ? { overwrite } : {}),
    });
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    for (const group of ['user', 'creator', 'editor', 'admin', 'superAdmin'] as const)
      await member(`rv_${group}`, group);
    ids.tag = await upsertTag(db, { name: 'rv-tag', nameZh: '测试标签', category: 'theme' });
    ids.tag2 = await upsertTag(db, { name: 'rv-tag-2' });
    ids.person = await upsertPerson(db, { name: 'RV Person', gender: 'f' });
    ids.voice = await upsertPerson(db, { name: 'RV Voice' });
    ids.character = await upsertCharacter(db, { name: 'RV Heroine' });
    ids.producer = await upsertProducer(db, { name: 'RV Studio', website: 'https://example.test' });
    ids.other = await saveGalgame(db, { title: 'RV Other' });
    ids.galgame = await saveGalgame(db, {
      title: 'RV Game',
      platforms: ['windows'],
      tags: [{ tagId: ids.tag, votes: 3, spoiler: 1 }],
      producers: [{ producerId: ids.producer, role: 'developer' }],
      staff: [{ personId: ids.person, role: 'scenario', note: 'main' }],
      characters: [{ characterId: ids.character, role: 'main', voicePersonId: ids.voice }],
      prices: [{ edition: 'Standard', currency: 'JPY', amount: 8800 }],
    });
    ids.lightnovel = await saveLightnovel(db, {
      name: 'RV Novel',
      staff: [{ personId: ids.person, role: 'author' }],
      producers: [{ producerId: ids.producer, role: 'publisher' }],
    });
    ids.lightnovel2 = await saveLightnovel(db, { name: 'RV Novel 2' });
    ids.volume = await saveVolume(db, { lightnovelId: ids.lightnovel, number: 1, title: 'Vol 1' });
  });

  afterAll(async () => app.close());

  it('reads every type as its document and writes an edit of each back exactly', async () => {
    const edits: [EditType, string, Partial<Record<string, unknown>>][] = [
      [
        'galgame',
        'galgame',
        {
          titleZh: '测试游戏',
          tags: [
            { tagId: ids.tag2!, spoiler: 0 },
            { tagId: ids.tag!, spoiler: 2 },
          ],
          relations: [{ galgameId: ids.other!, relation: 'sequel' }],
          releaseDate: '2025-05-05',
        },
      ],
      ['lightnovel', 'lightnovel', { nameZh: '测试小说', serialStatus: 'finished', staff: [] }],
      ['volume', 'volume', { titleZh: '第一卷', number: 2, isbn: '978-4-04-000000-1', pages: 300 }],
      ['person', 'person', { nameZh: '测试人物', aliases: ['RVP'] }],
      ['character', 'character', { description: 'A heroine', birthday: '4-1' }],
      ['producer', 'producer', { kind: 'amateur', website: '' }],
      ['tag', 'tag', { description: 'About themes', category: 'plot' }],
    ];
    for (const [type, key, change] of edits) {
      const before = await open(type, ids[key]!);
      expect(before.revision, type).toBe(1);
      const outcome = data((await edit(type, ids[key]!, change)).body);
      expect(outcome, type).toEqual({ outcome: 'applied', id: ids[key], revision: 2 });
      const after = await open(type, ids[key]!);
      const expected = { ...before.doc, ...change } as Record<string, unknown>;
      if (type === 'galgame') expected.tags = [...(change.tags as unknown[])].reverse();
      expect(after.doc, type).toEqual(expected);
      // Saving what is there changes nothing.
      expectFailure(
        await save(type, ids[key]!, { doc: after.doc, baseRevision: after.revision }),
        400,
        'NOTHING_CHANGED',
      );
    }
    // The tag that stayed kept its members' votes.
    const votes = await db
      .selectFrom('galgame_tag')
      .select(['tag_id', 'votes'])
      .where('galgame_id', '=', ids.galgame!)
      .execute();
    expect(votes.find((v) => v.tag_id === ids.tag)?.votes).toBe(3);
    // The series counts follow a volume's move.
    await edit('volume', ids.volume!, { lightnovelId: ids.lightnovel2 });
    const counts = await db
      .selectFrom('lightnovel')
      .select(['id', 'volume_count'])
      .where('id', 'in', [ids.lightnovel!, ids.lightnovel2!])
      .orderBy('id')
      .execute();
    expect(counts.map((c) => Number(c.volume_count))).toEqual([0, 1]);
    expect(((await open('volume', ids.volume!)).doc as VolumeDoc).lightnovelId).toBe(ids.lightnovel2);
  });

  it('merges a stale save with fields changed since, and refuses a real conflict until overwritten', async () => {
    const stale = await open('galgame', ids.galgame!);
    data((await edit('galgame', ids.galgame!, { intro: 'Written meanwhile' })).body);
    // A field the other edit did not touch: merged, the other change kept.
    const merged = data(
      (
        await save('galgame', ids.galgame!, {
          doc: { ...stale.doc, aliases: ['RVG'] },
          baseRevision: stale.revision,
        })
      ).body,
    );
    expect(merged).toMatchObject({ outcome: 'applied' });
    const now = (await open('galgame', ids.galgame!)).doc as GalgameDoc;
    expect(now).toMatchObject({ intro: 'Written meanwhile', aliases: ['RVG'] });
    // The same field, differently: 409 with the fields; then overwrite them.
    const body = { doc: { ...stale.doc, intro: 'My intro' }, baseRevision: stale.revision };
    const conflict = await save('galgame', ids.galgame!, body);
    expectFailure(conflict, 409, 'EDIT_CONFLICT');
    const info = (conflict.body as ApiFailure).data as unknown as EditConflict;
    expect(info.fields).toEqual([
      { field: 'intro', base: (stale.doc as GalgameDoc).intro, current: 'Written meanwhile', proposed: 'My intro' },
    ]);
    expectFailure(await save('galgame', ids.galgame!, { ...body, overwrite: ['title'] }), 409, 'EDIT_CONFLICT');
    data((await save('galgame', ids.galgame!, { ...body, overwrite: ['intro'] })).body);
    expect(((await open('galgame', ids.galgame!)).doc as GalgameDoc).intro).toBe('My intro');
  });

  it('numbers concurrent saves exactly: never two of the same number', async () => {
    const base = await open('person', ids.person!);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        save('person', ids.person!, {
          doc: { ...base.doc, [`${['description', 'birthday', 'gender'][i % 3]}`]: `v${i}` },
          baseRevision: base.revision,
        }),
      ),
    );
    const applied = answers.filter((a) => a.res.status === 200).map((a) => data(a.body));
    for (const answer of answers.filter((a) => a.res.status !== 200))
      expect(['EDIT_CONFLICT']).toContain((answer.body as ApiFailure).code);
    const numbers = applied.map((a) => (a.outcome === 'applied' ? a.revision : 0)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => base.revision + 1 + i));
    const rows = await db
      .selectFrom('catalogue_revision')
      .select('number')
      .where('item_type', '=', 'person')
      .where('item_id', '=', ids.person!)
      .orderBy('number')
      .execute();
    expect(rows.map((r) => Number(r.number))).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
  });

  it('lists the history with who and what, shows each revision’s diff with names, and restores for admins', async () => {
    const history = data(
      (await call<RevisionPage>(app, 'GET', `/creator/items/galgame/${ids.galgame}/revisions`, tokens.creator)).body,
    );
    expect(history.items[0]!.number).toBeGreaterThan(2);
    expect(history.items.at(-1)).toMatchObject({ number: 1, user: null, changes: [] });
    expect(history.items.at(-2)).toMatchObject({ number: 2, user: { name: 'rv_editor' } });
    const second = data(
      (await call<RevisionDetail>(app, 'GET', `/creator/items/galgame/${ids.galgame}/revisions/2`, tokens.creator))
        .body,
    );
    expect(second.diff.map((d) => d.field)).toEqual(['titleZh', 'releaseDate', 'tags', 'relations']);
    expect(second.names.tag[String(ids.tag2)]).toBe('rv-tag-2');
    expect(second.names.galgame[String(ids.other)]).toBe('RV Other');
    expect(second.names.person[String(ids.voice)]).toBe('RV Voice');

    const restore = (group: UserGroup) =>
      call<SaveOutcome>(app, 'POST', `/creator/items/galgame/${ids.galgame}/revisions/1/restore`, tokens[group], {
        note: 'back to the start',
      });
    for (const group of ['user', 'creator', 'editor'] as const) expectFailure(await restore(group), 403, 'FORBIDDEN');
    const latest = history.items[0]!.number;
    const restored = data((await restore('admin')).body);
    expect(restored).toEqual({ outcome: 'applied', id: ids.galgame, revision: latest + 1 });
    const now = await open('galgame', ids.galgame!);
    const first = data(
      (await call<RevisionDetail>(app, 'GET', `/creator/items/galgame/${ids.galgame}/revisions/1`, tokens.editor)).body,
    );
    expect(now.doc).toEqual(first.doc);
    expect(first.diff).toEqual([]);
    const row = await db
      .selectFrom('catalogue_revision')
      .selectAll()
      .where('item_id', '=', ids.galgame!)
      .where('item_type', '=', 'galgame')
      .where('number', '=', latest + 1)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ restored_from: 1, note: 'back to the start' });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'revision.restore')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_type: 'galgame', target_id: String(ids.galgame) });
    expect(JSON.parse(audit.detail)).toMatchObject({ restoredFrom: 1, revision: latest + 1 });
    // Restoring what is current changes nothing; a revision that does not exist is a 404.
    expectFailure(await restore('superAdmin'), 400, 'NOTHING_CHANGED');
    expectFailure(
      await call(app, 'POST', `/creator/items/galgame/${ids.galgame}/revisions/999/restore`, tokens.admin, {}),
      404,
      'NOT_FOUND',
    );
  });

  it('gives each role only its own calls', async () => {
    const path = `/creator/items/tag/${ids.tag}`;
    const rows: [string, string, UserGroup | null, number][] = [
      ['GET', path, null, 401],
      ['GET', path, 'user', 200],
      ['GET', `${path}/revisions`, null, 401],
      ['GET', `${path}/revisions`, 'user', 403],
      ['GET', `${path}/revisions`, 'creator', 200],
      ['GET', `${path}/revisions`, 'editor', 200],
      ['GET', `${path}/revisions/1`, 'user', 403],
      ['GET', `${path}/revisions/1`, 'admin', 200],
      ['GET', `${path}/revisions/77`, 'admin', 404],
      ['POST', '/creator/items/tag', null, 401],
      ['POST', '/creator/items/tag', 'user', 403],
      ['GET', '/creator/update-requests', 'creator', 403],
      ['GET', '/creator/update-requests', 'superAdmin', 200],
      ['GET', '/creator/update-requests/mine', 'user', 200],
    ];
    for (const [method, url, group, status] of rows) {
      const answer = await call(
        app,
        method,
        url,
        group ? tokens[group] : undefined,
        method === 'POST'
          ? { doc: { name: `rv-new-${group}`, nameZh: '', category: 'theme', description: '' } }
          : undefined,
      );
      expect(answer.res.status, `${method} ${url} as ${group ?? 'visitor'}`).toBe(status);
    }
    // A member's save of an entity is a request, an editor's is applied.
    const tag = await open('tag', ids.tag!, 'user');
    const outcome = data(
      (
        await save(
          'tag',
          ids.tag!,
          { doc: { ...(tag.doc as EditDoc), nameZh: '成员提议' }, baseRevision: tag.revision },
          'user',
        )
      ).body,
    );
    expect(outcome.outcome).toBe('requested');
  });
});
