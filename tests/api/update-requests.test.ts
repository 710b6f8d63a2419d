import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { saveGalgame, upsertPerson, upsertTag } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { GalgameDoc } from '../../src/shared/creator/docs.ts';
import type { EditConflict, ItemDocument, SaveOutcome } from '../../src/shared/creator/items.contract.ts';
import type { RequestDetail, RequestPage, RequestSummary } from '../../src/shared/creator/requests.contract.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { NotificationPage } from '../../src/shared/notifications/notifications.ts';
import { call, data, expectFailure, makeAccount } from '../support/accounts.ts';
import { createTestApp, jobsSettled, type TestApp } from '../support/test-app.ts';

// Update requests over HTTP: a member proposes, an editor reviews (approve with a conflict in between,
// reject, request changes, resubmit, withdraw), every approval is one transaction with its revision,
// audit row and notification; the permissions of each role on each call; hostile documents.
describe('update requests API', () => {
  let app: TestApp;
  let db: Db;
  let gameId: number;
  let draftId: number;
  let tagA: number;
  let tagB: number;
  let person: number;
  const who: Record<string, { id: string; token: string }> = {};

  async function member(name: string, group: UserGroup = 'user') {
    who[name] = await makeAccount(app, name, group);
    return who[name];
  }
  const token = (name: string) => who[name]!.token;
  const open = async (name: string, id = gameId) =>
    data((await call<ItemDocument>(app, 'GET', `/creator/items/galgame/${id}`, token(name))).body);
  const save = (name: string, body: unknown, id = gameId) =>
    call<SaveOutcome>(app, 'PUT', `/creator/items/galgame/${id}`, token(name), body);
  const detail = async (name: string, id: number) =>
    data((await call<RequestDetail>(app, 'GET', `/creator/update-requests/${id}`, token(name))).body);
  const propose = async (name: string, change: Partial<GalgameDoc>, note = '') => {
    const doc = await open(name);
    const answer = await save(name, { doc: { ...doc.doc, ...change }, baseRevision: doc.revision, note });
    const outcome = data(answer.body);
    if (outcome.outcome !== 'requested') throw new Error('expected a request');
    return outcome.requestId;
  };
  const audits = (action: string) =>
    db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action as never)
      .execute();

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    await member('ur_user');
    await member('ur_other');
    await member('ur_creator', 'creator');
    await member('ur_editor', 'editor');
    await member('ur_editor2', 'editor');
    await member('ur_admin', 'admin');
    await member('ur_banned');
    await db.updateTable('users').set({ status: 'banned' }).where('id', '=', who.ur_banned!.id).execute();
    tagA = await upsertTag(db, { name: 'ur-romance', nameZh: '恋爱' });
    tagB = await upsertTag(db, { name: 'ur-school', nameZh: '校园' });
    person = await upsertPerson(db, { name: 'UR 作家', nameZh: '测试作家' });
    gameId = await saveGalgame(db, {
      title: 'Hoshi no Yume',
      titleZh: '星之梦',
      intro: 'line one\nline two',
      tags: [{ tagId: tagA, votes: 7, spoiler: 0 }],
      staff: [{ personId: person, role: 'scenario' }],
    });
    draftId = await saveGalgame(db, { title: 'Draft game', status: 'draft' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('writes revision 1 (a snapshot) when an item is first opened, and tells who may apply', async () => {
    const doc = await open('ur_user');
    expect(doc.revision).toBe(1);
    expect(doc.canApply).toBe(false);
    expect(doc.title).toBe('星之梦');
    expect((doc.doc as GalgameDoc).tags).toEqual([{ tagId: tagA, spoiler: 0 }]);
    expect((await open('ur_editor')).canApply).toBe(true);
    const revisions = await db.selectFrom('catalogue_revision').selectAll().where('item_id', '=', gameId).execute();
    expect(revisions.map((r) => [r.number, r.user_id])).toEqual([[1, null]]);
  });

  it('refuses visitors (401), banned members (403) and unpublished items to members (404)', async () => {
    expectFailure(await call(app, 'GET', `/creator/items/galgame/${gameId}`), 401, 'UNAUTHORIZED');
    const banned = await call(app, 'GET', `/creator/items/galgame/${gameId}`, token('ur_banned'));
    expect([401, 403]).toContain(banned.res.status);
    expectFailure(await call(app, 'GET', `/creator/items/galgame/${draftId}`, token('ur_user')), 404, 'NOT_FOUND');
    expect((await open('ur_editor', draftId)).status).toBe('draft');
    expectFailure(await call(app, 'GET', `/creator/update-requests/mine`), 401, 'UNAUTHORIZED');
  });

  it('takes a member’s edit as a request with its field-by-field changes; saving again replaces it', async () => {
    const doc = await open('ur_user');
    expectFailure(await save('ur_user', { doc: doc.doc, baseRevision: doc.revision }), 400, 'NOTHING_CHANGED');
    const first = await propose('ur_user', { titleZh: '星之梦 改' }, 'typo');
    const second = await propose('ur_user', { titleZh: '星之梦（修订）' }, 'better');
    expect(second).toBe(first);
    const mine = data((await call<RequestPage>(app, 'GET', '/creator/update-requests/mine', token('ur_user'))).body);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ id: first, status: 'pending', changes: ['titleZh'], note: 'better' });
    expect((await open('ur_user')).pendingRequestId).toBe(first);
    const seen = await detail('ur_editor', first);
    expect(seen.fields).toEqual([
      { field: 'titleZh', base: '星之梦', current: '星之梦', proposed: '星之梦（修订）', conflict: false },
    ]);
    expect(seen.can).toEqual({ review: true, withdraw: false, resubmit: false });
    // Nobody else sees it; its author sees it but cannot review it.
    expectFailure(await call(app, 'GET', `/creator/update-requests/${first}`, token('ur_other')), 404, 'NOT_FOUND');
    expect((await detail('ur_user', first)).can).toEqual({ review: false, withdraw: true, resubmit: true });
    // Withdraw it to leave the item's queue clean for the next test.
    data((await call(app, 'POST', `/creator/update-requests/${first}/withdraw`, token('ur_user'))).body);
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${first}/withdraw`, token('ur_user')),
      409,
      'REQUEST_CLOSED',
    );
  });

  it('applies an approval with a conflicting edit in between only after the reviewer saw it, then notifies', async () => {
    const requestId = await propose('ur_user', { titleZh: '星之梦 新版', intro: 'line one\nline 2' });
    // An editor changes the title and the tags meanwhile (revision 2).
    const now = await open('ur_editor');
    const direct = data(
      (
        await save('ur_editor', {
          doc: { ...now.doc, titleZh: '星之梦 官方', tags: [{ tagId: tagA, spoiler: 1 }] },
          baseRevision: now.revision,
        })
      ).body,
    );
    expect(direct).toEqual({ outcome: 'applied', id: gameId, revision: 2 });

    const conflict = await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, token('ur_editor2'), {});
    expectFailure(conflict, 409, 'EDIT_CONFLICT');
    const info = (conflict.body as ApiFailure).data as unknown as EditConflict;
    expect(info.currentRevision).toBe(2);
    expect(info.fields.map((f) => f.field)).toEqual(['titleZh']);
    const seen = await detail('ur_editor2', requestId);
    expect(seen.fields.find((f) => f.field === 'titleZh')?.conflict).toBe(true);
    expect(seen.fields.find((f) => f.field === 'intro')?.conflict).toBe(false);
    // Nothing was half-written by the refused approval.
    expect((await detail('ur_editor2', requestId)).status).toBe('pending');
    expect((await open('ur_editor')).revision).toBe(2);

    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, token('ur_user'), {}),
      403,
      'FORBIDDEN',
    );
    const approved = await call<SaveOutcome>(
      app,
      'POST',
      `/creator/update-requests/${requestId}/approve`,
      token('ur_editor2'),
      { overwrite: ['titleZh'] },
    );
    expect(data(approved.body)).toEqual({ outcome: 'applied', id: gameId, revision: 3 });
    const after = (await open('ur_editor')).doc as GalgameDoc;
    // The editor's tag change (not in the request) is kept; the request's fields win.
    expect(after).toMatchObject({
      titleZh: '星之梦 新版',
      intro: 'line one\nline 2',
      tags: [{ tagId: tagA, spoiler: 1 }],
    });
    const tagVotes = await db.selectFrom('galgame_tag').select('votes').where('galgame_id', '=', gameId).execute();
    expect(tagVotes.map((t) => t.votes)).toEqual([7]);
    const revision = await db
      .selectFrom('catalogue_revision')
      .selectAll()
      .where('item_id', '=', gameId)
      .where('number', '=', 3)
      .executeTakeFirstOrThrow();
    expect(revision).toMatchObject({ request_id: requestId, user_id: who.ur_user!.id });
    expect(JSON.parse(revision.changes)).toEqual(['titleZh', 'intro']);
    const closed = await detail('ur_user', requestId);
    expect(closed).toMatchObject({ status: 'approved', appliedRevision: 3 });
    expect(closed.reviewer?.name).toBe('ur_editor2');
    expect((await audits('request.approve')).map((a) => a.target_id)).toContain(String(requestId));

    // The game's page data follows, and the member hears of it.
    await jobsSettled(app, { name: 'notifications.event', seconds: 10, what: 'notifications' });
    const notes = data((await call<NotificationPage>(app, 'GET', '/v2/user/notifications', token('ur_user'))).body);
    const note = notes.items.find((n) => n.kind === 'review');
    expect(note).toMatchObject({ action: 'request_approved', excerpt: '星之梦 新版', url: `/galgame/${gameId}` });
    const game = await db.selectFrom('galgame').select('title_zh').where('id', '=', gameId).executeTakeFirstOrThrow();
    expect(game.title_zh).toBe('星之梦 新版');
  });

  it('answers REQUEST_CLOSED to a second approval, and only one of two concurrent approvals applies', async () => {
    const requestId = await propose('ur_other', { aliases: ['Dream of Stars'] });
    const answers = await Promise.all([
      call(app, 'POST', `/creator/update-requests/${requestId}/approve`, token('ur_editor'), {}),
      call(app, 'POST', `/creator/update-requests/${requestId}/approve`, token('ur_editor2'), {}),
    ]);
    expect(answers.map((a) => a.res.status).sort()).toEqual([200, 409]);
    expect((answers.find((a) => a.res.status === 409)!.body as ApiFailure).code).toBe('REQUEST_CLOSED');
    const applied = await db
      .selectFrom('catalogue_revision')
      .select('number')
      .where('item_id', '=', gameId)
      .where('request_id', '=', requestId)
      .execute();
    expect(applied).toHaveLength(1);
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${requestId}/reject`, token('ur_editor'), { reason: 'late' }),
      409,
      'REQUEST_CLOSED',
    );
  });

  it('rejects with a reason, sends back for changes, takes a resubmission, and tells the member each time', async () => {
    const rejected = await propose('ur_user', { intro: 'spam' });
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${rejected}/reject`, token('ur_editor'), { reason: '  ' }),
      400,
      'VALIDATION_FAILED',
    );
    const refused = data(
      (
        await call<RequestSummary>(app, 'POST', `/creator/update-requests/${rejected}/reject`, token('ur_editor'), {
          reason: 'Not an improvement',
        })
      ).body,
    );
    expect(refused).toMatchObject({ status: 'rejected', reviewNote: 'Not an improvement' });

    const sentBack = await propose('ur_user', { aliases: ['Hoshiyume'] });
    expect(sentBack).not.toBe(rejected);
    const changes = data(
      (
        await call<RequestSummary>(app, 'POST', `/creator/update-requests/${sentBack}/changes`, token('ur_editor'), {
          reason: 'Add the source',
        })
      ).body,
    );
    expect(changes.status).toBe('changes_requested');
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${sentBack}/approve`, token('ur_editor'), {}),
      409,
      'REQUEST_CLOSED',
    );
    const current = await open('ur_user');
    expectFailure(
      await call(app, 'PUT', `/creator/update-requests/${sentBack}`, token('ur_other'), { doc: current.doc }),
      404,
      'NOT_FOUND',
    );
    const resubmitted = data(
      (
        await call<RequestSummary>(app, 'PUT', `/creator/update-requests/${sentBack}`, token('ur_user'), {
          doc: { ...current.doc, aliases: ['Hoshiyume', 'ほしゆめ'] },
          baseRevision: current.revision,
          note: 'source: the official site',
        })
      ).body,
    );
    expect(resubmitted).toMatchObject({ status: 'pending', note: 'source: the official site', changes: ['aliases'] });
    expect((await audits('request.reject')).length).toBeGreaterThan(0);
    expect((await audits('request.changes')).length).toBeGreaterThan(0);
    await jobsSettled(app, { name: 'notifications.event', seconds: 10, what: 'notifications' });
    const notes = data((await call<NotificationPage>(app, 'GET', '/v2/user/notifications', token('ur_user'))).body);
    const actions = notes.items.filter((n) => n.kind === 'review').map((n) => [n.action, n.reason]);
    expect(actions).toContainEqual(['request_rejected', 'Not an improvement']);
    expect(actions).toContainEqual(['request_changes', 'Add the source']);
    data((await call(app, 'POST', `/creator/update-requests/${sentBack}/withdraw`, token('ur_user'))).body);
  });

  it('lets editors review, but not their own request, and keeps the queue to editors', async () => {
    expectFailure(await call(app, 'GET', '/creator/update-requests', token('ur_user')), 403, 'FORBIDDEN');
    expectFailure(await call(app, 'GET', '/creator/update-requests', token('ur_creator')), 403, 'FORBIDDEN');
    for (const name of ['ur_editor', 'ur_admin'])
      expect((await call(app, 'GET', '/creator/update-requests?status=approved', token(name))).res.status).toBe(200);
    expectFailure(
      await call(app, 'GET', '/creator/update-requests?status=nope', token('ur_editor')),
      400,
      'VALIDATION_FAILED',
    );
    // A request an editor made as a member stays someone else's to review.
    const ownDoc = (await open('ur_editor')).doc;
    const own = await db.transaction().execute(async (trx) => {
      const id = 9000;
      await trx
        .insertInto('update_request')
        .values({
          id,
          item_type: 'galgame',
          item_id: gameId,
          base_revision: 1,
          doc: JSON.stringify({ ...ownDoc, intro: 'mine' }),
          changes: '[]',
          status: 'pending',
          user_id: who.ur_editor!.id,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      return id;
    });
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${own}/approve`, token('ur_editor'), {}),
      403,
      'FORBIDDEN',
    );
    for (const name of ['ur_user', 'ur_creator'])
      expectFailure(
        await call(app, 'POST', `/creator/update-requests/${own}/reject`, token(name), { reason: 'x' }),
        name === 'ur_user' || name === 'ur_creator' ? 403 : 404,
        'FORBIDDEN',
      );
    expectFailure(
      await call(app, 'POST', '/creator/update-requests/123456/approve', token('ur_editor'), {}),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await call(app, 'POST', `/creator/update-requests/${own}/withdraw`, token('ur_user')),
      404,
      'NOT_FOUND',
    );
  });

  it('lets creators propose new items (approved as published), editors create them, and refuses members', async () => {
    const doc = { title: 'Brand new', titleZh: '全新', aliases: [], intro: '', releaseDate: '2026-01-02' };
    const full = { ...(await open('ur_editor')).doc, ...doc, tags: [], staff: [], relations: [] };
    expectFailure(await call(app, 'POST', '/creator/items/galgame', token('ur_user'), { doc: full }), 403, 'FORBIDDEN');
    const proposed = data(
      (await call<SaveOutcome>(app, 'POST', '/creator/items/galgame', token('ur_creator'), { doc: full })).body,
    );
    expect(proposed.outcome).toBe('requested');
    const again = data(
      (await call<SaveOutcome>(app, 'POST', '/creator/items/galgame', token('ur_creator'), { doc: full })).body,
    );
    expect(again).toEqual(proposed);
    if (proposed.outcome !== 'requested') return;
    const approved = data(
      (
        await call<SaveOutcome>(
          app,
          'POST',
          `/creator/update-requests/${proposed.requestId}/approve`,
          token('ur_admin'),
          {},
        )
      ).body,
    );
    if (approved.outcome !== 'applied') throw new Error('expected applied');
    expect(approved.revision).toBe(1);
    const game = await db.selectFrom('galgame').selectAll().where('id', '=', approved.id).executeTakeFirstOrThrow();
    expect(game).toMatchObject({ status: 'published', title_zh: '全新', created_by: who.ur_creator!.id });
    expect((await detail('ur_creator', proposed.requestId)).itemId).toBe(approved.id);

    const created = data(
      (
        await call<SaveOutcome>(app, 'POST', '/creator/items/tag', token('ur_editor'), {
          doc: { name: 'ur-new-tag', nameZh: '新标签', category: 'theme', description: '' },
        })
      ).body,
    );
    expect(created.outcome).toBe('applied');
    expectFailure(
      await call(app, 'POST', '/creator/items/tag', token('ur_editor'), {
        doc: { name: 'ur-new-tag', nameZh: '', category: 'theme', description: '' },
      }),
      409,
      'NAME_IN_USE',
    );
  });

  it('refuses hostile documents with 400 naming the field, and writes nothing', async () => {
    const current = await open('ur_user');
    const base = current.doc as GalgameDoc;
    const cases: [unknown, string][] = [
      [{ ...base, secret: 1 }, 'doc'],
      [{ ...base, nsfw: 'yes' }, 'doc.nsfw'],
      [{ ...base, title: 'bad\u0000title' }, 'doc.title'],
      [{ ...base, tags: Array.from({ length: 500 }, (_, i) => ({ tagId: i + 1, spoiler: 0 })) }, 'doc.tags'],
      [{ ...base, tags: [{ tagId: 987654, spoiler: 0 }] }, 'doc.tags'],
      [{ ...base, staff: [{ personId: person, role: 'scenario', note: 'x'.repeat(5000) }] }, 'doc.staff'],
      [{ ...base, releaseDate: '2026-02-30' }, 'doc.releaseDate'],
      ['not a document', 'doc'],
    ];
    const before = await db.selectFrom('update_request').select('id').execute();
    for (const [doc, path] of cases) {
      const answer = await call(app, 'PUT', `/creator/items/galgame/${gameId}`, token('ur_editor'), {
        doc,
        baseRevision: current.revision,
      });
      expectFailure(answer, 400, 'VALIDATION_FAILED');
      const issues = ((answer.body as ApiFailure).data?.issues ?? []) as { path: string }[];
      expect(
        issues.some((i) => i.path.startsWith(path)),
        `${JSON.stringify(doc).slice(0, 80)} → ${JSON.stringify(issues)}`,
      ).toBe(true);
      expectFailure(
        await call(app, 'PUT', `/creator/items/galgame/${gameId}`, token('ur_user'), {
          doc,
          baseRevision: current.revision,
        }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(await db.selectFrom('update_request').select('id').execute()).toHaveLength(before.length);
    expect((await open('ur_editor')).revision).toBe(current.revision);
    expectFailure(
      await call(app, 'PUT', `/creator/items/galgame/${gameId}`, token('ur_user'), { doc: base, baseRevision: 'one' }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await call(app, 'PUT', `/creator/items/galgame/${gameId}`, token('ur_user'), {
        doc: { ...base, intro: 'x' },
        baseRevision: 999,
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await call(app, 'GET', '/creator/items/nope/1', token('ur_user')), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', '/creator/items/galgame/99999', token('ur_user')), 404, 'NOT_FOUND');
    void tagB;
  });
});
