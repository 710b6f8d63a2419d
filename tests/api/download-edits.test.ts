import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { up as addRevisionDownloads } from '../../src/server/db/migrations/20261206-0001-revision-downloads.ts';
import { saveGalgame } from '../../src/server/modules/catalogue/catalogue.writer.ts';
import { reportLink } from '../../src/server/modules/catalogue/downloads.service.ts';
import { listGalgames } from '../../src/server/modules/catalogue/galgame.service.ts';
import { galgameListQuerySchema } from '../../src/shared/catalogue.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import type { DownloadView } from '../../src/shared/catalogue-model.ts';
import type { DownloadDoc, GalgameDoc } from '../../src/shared/creator/docs.ts';
import type {
  EditConflict,
  ItemDocument,
  RevisionDetail,
  SaveOutcome,
} from '../../src/shared/creator/items.contract.ts';
import type { ApiFailure } from '../../src/shared/api.ts';
import { call, data, expectFailure, makeAccount } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// A game's downloads edited through its document (decision 028): rows keep their ids (and a kept
// link its reports), a changed address starts without reports, other games' rows are never touched,
// hostile lists are refused whole, members propose and editors apply, a moderator's removal of a dead
// link is a revision (so a proposal made before it conflicts), and an admin restores a removed link.
describe('download edits', () => {
  let app: TestApp;
  let db: Db;
  const tokens: Partial<Record<UserGroup, string>> = {};
  const users: Partial<Record<UserGroup, string>> = {};
  let game = 0;
  let other = 0;

  async function member(name: string, group: UserGroup) {
    const account = await makeAccount(app, name, group);
    users[group] = account.id;
    tokens[group] = account.token;
  }
  const open = async (id = game, group: UserGroup = 'editor') =>
    data((await call<ItemDocument>(app, 'GET', `/creator/items/galgame/${id}`, tokens[group])).body);
  const save = (body: unknown, group: UserGroup = 'editor', id = game) =>
    call<SaveOutcome>(app, 'PUT', `/creator/items/galgame/${id}`, tokens[group], body);
  const docOf = (item: ItemDocument) => item.doc as GalgameDoc;
  const revisionAt = async (number: number) =>
    data(
      (await call<RevisionDetail>(app, 'GET', `/creator/items/galgame/${game}/revisions/${number}`, tokens.editor))
        .body,
    );
  const appliedRevision = (outcome: SaveOutcome) => (outcome.outcome === 'applied' ? outcome.revision : 0);
  const downloadsPage = async (id = game) =>
    data((await call<{ downloads: DownloadView[] }>(app, 'GET', `/galgame/${id}/downloads`, tokens.user)).body)
      .downloads;
  const linkRow = (id: number) =>
    db.selectFrom('download_link').select(['id', 'url', 'report_count']).where('id', '=', id).executeTakeFirst();
  const reportsOf = async (id: number) =>
    Number(
      (
        await db
          .selectFrom('link_report')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('link_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    app = await createTestApp();
    db = app.ctx.db;
    for (const group of ['user', 'creator', 'editor', 'admin'] as const) await member(`dl_${group}`, group);
    game = await saveGalgame(db, {
      title: 'DL Game',
      downloads: [
        {
          language: 'zh-Hans',
          platform: 'windows',
          translationType: 'fan',
          translationGroup: '某汉化组',
          sizeBytes: 3 * 1024 ** 3,
          links: [
            { label: '百度网盘', url: 'https://pan.example.test/a', password: 'abcd' },
            { label: '备用', url: 'https://mirror.example.test/b' },
            { label: '旧链接', url: 'https://old.example.test/d' },
          ],
        },
      ],
    });
    other = await saveGalgame(db, {
      title: 'DL Other',
      downloads: [
        { language: 'ja', platform: 'windows', translationType: 'none', links: [{ url: 'https://other.test/x' }] },
      ],
    });
  });
  afterAll(() => app.close());

  it('opens a game with its downloads, ids and passwords included', async () => {
    const doc = docOf(await open());
    expect(doc.downloads).toHaveLength(1);
    expect(doc.downloads[0]).toMatchObject({
      language: 'zh-Hans',
      translationType: 'fan',
      translationGroup: '某汉化组',
      sizeBytes: 3 * 1024 ** 3,
      note: '',
    });
    expect(doc.downloads[0]!.links.map((l) => [l.label, l.password])).toEqual([
      ['百度网盘', 'abcd'],
      ['备用', ''],
      ['旧链接', ''],
    ]);
    expect(doc.downloads[0]!.links.every((l) => typeof l.id === 'number')).toBe(true);
  });

  it('saves by id: kept links keep their reports, a new address starts afresh, removed rows go', async () => {
    const item = await open();
    const [kept, moved, removed] = docOf(item).downloads[0]!.links;
    for (const link of [kept!, moved!, removed!]) {
      await reportLink(db, link.id!, users.user!, '失效');
      await reportLink(db, link.id!, users.creator!, '');
    }
    const downloads: DownloadDoc[] = [
      {
        ...docOf(item).downloads[0]!,
        note: '含全 CG 存档',
        links: [
          kept!,
          { ...moved!, url: 'https://mirror.example.test/b2' },
          { id: null, label: '新', url: 'https://new.example.test/c', password: '' },
        ],
      },
      {
        id: null,
        language: 'ja',
        platform: 'windows',
        translationType: 'official',
        translationGroup: '',
        sizeBytes: null,
        note: '',
        links: [],
      },
    ];
    const outcome = data(
      (await save({ doc: { ...docOf(item), downloads }, baseRevision: item.revision, note: '整理下载' })).body,
    );
    expect(outcome.outcome).toBe('applied');

    expect(await linkRow(kept!.id!)).toMatchObject({ report_count: 2 });
    expect(await reportsOf(kept!.id!)).toBe(2);
    expect(await linkRow(moved!.id!)).toMatchObject({ url: 'https://mirror.example.test/b2', report_count: 0 });
    expect(await reportsOf(moved!.id!)).toBe(0);
    expect(await linkRow(removed!.id!)).toBeUndefined();
    expect(await reportsOf(removed!.id!)).toBe(0);

    // The revision holds the document as stored: the new rows with their ids.
    const after = docOf(await open());
    expect(after.downloads).toHaveLength(2);
    expect(after.downloads[0]!.note).toBe('含全 CG 存档');
    expect(after.downloads[0]!.links.map((l) => l.url)).toEqual([
      'https://pan.example.test/a',
      'https://mirror.example.test/b2',
      'https://new.example.test/c',
    ]);
    expect(after.downloads.flatMap((d) => [d.id, ...d.links.map((l) => l.id)]).every((id) => id !== null)).toBe(true);
    const revision = await revisionAt(appliedRevision(outcome));
    expect(revision.changes).toEqual(['downloads']);
    expect((revision.doc as GalgameDoc).downloads).toEqual(after.downloads);

    // Saving the same document again is no change, not a rewrite of the rows.
    const again = await open();
    expectFailure(await save({ doc: docOf(again), baseRevision: again.revision }), 400, 'NOTHING_CHANGED');

    // The public download page and the list's translation filter follow.
    const page = await downloadsPage();
    expect(page.map((d) => d.language).sort()).toEqual(['ja', 'zh-Hans']);
    expect(page.find((d) => d.language === 'zh-Hans')!.links.find((l) => l.id === kept!.id)).toMatchObject({
      reportCount: 2,
    });
    const list = await listGalgames(db, galgameListQuerySchema.parse({ translation: 'official' }));
    expect(list.items.some((g) => g.id === game)).toBe(true);
  });

  it("never touches another game's rows: their ids in this game's document are new rows here", async () => {
    const theirs = docOf(await open(other)).downloads[0]!;
    const item = await open();
    const outcome = await save({
      doc: { ...docOf(item), downloads: [...docOf(item).downloads, theirs] },
      baseRevision: item.revision,
    });
    expect(outcome.res.status).toBe(200);
    expect(docOf(await open(other)).downloads).toEqual([theirs]);
    const mine = docOf(await open()).downloads;
    expect(mine).toHaveLength(3);
    expect(mine[2]!.id).not.toBe(theirs.id);
    expect(mine[2]!.links[0]!.id).not.toBe(theirs.links[0]!.id);
    expect(mine[2]!.links[0]!.url).toBe('https://other.test/x');
  });

  it('refuses hostile lists whole, naming the field, and changes nothing', async () => {
    const item = await open();
    const doc = docOf(item);
    const first = doc.downloads[0]!;
    const link = first.links[0]!;
    const bad: [unknown, string][] = [
      [[{ ...first, links: [{ ...link, url: 'javascript:alert(1)' }] }], 'doc.downloads.0.links.0.url'],
      [[{ ...first, links: [{ ...link, url: '' }] }], 'doc.downloads.0.links.0.url'],
      [[{ ...first, links: [link, link] }], 'doc.downloads.0.links'],
      [[first, { ...first, links: [] }], 'doc.downloads'],
      [[{ ...first, sizeBytes: -1 }], 'doc.downloads.0.sizeBytes'],
      [[{ ...first, sizeBytes: '3GB' }], 'doc.downloads.0.sizeBytes'],
      [[{ ...first, sizeBytes: 2 ** 60 }], 'doc.downloads.0.sizeBytes'],
      [[{ ...first, language: 'klingon' }], 'doc.downloads.0.language'],
      [[{ ...first, id: 'x' }], 'doc.downloads.0.id'],
      [[{ ...first, links: [{ ...link, password: 'a\u0000b' }] }], 'doc.downloads.0.links.0.password'],
      [[{ ...first, links: [{ ...link, label: 'x'.repeat(51) }] }], 'doc.downloads.0.links.0.label'],
      [[{ ...first, extra: true }], 'doc.downloads.0'],
      [[{ ...first, links: [{ ...link, __proto__x: 1 }] }], 'doc.downloads.0.links.0'],
      [[{ ...first, links: ['https://a.test/x'] }], 'doc.downloads.0.links.0'],
      [Array.from({ length: 31 }, () => ({ ...first, id: null, links: [] })), 'doc.downloads'],
      [[{ ...first, links: Array.from({ length: 11 }, () => ({ ...link, id: null })) }], 'doc.downloads.0.links'],
      ['not a list', 'doc.downloads'],
    ];
    for (const [downloads, path] of bad) {
      const answer = await save({ doc: { ...doc, downloads }, baseRevision: item.revision });
      expectFailure(answer, 400, 'VALIDATION_FAILED');
      const failure = answer.body as ApiFailure;
      expect(failure.data?.issues?.map((i) => i.path)).toContain(path);
      // Said in the reader's language, however deep the problem.
      expect(failure.message, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(docOf(await open())).toEqual(doc);
  });

  it('takes a member’s proposal through review, and a dead link removed meanwhile is a conflict', async () => {
    const item = await open(game, 'user');
    const doc = docOf(item);
    const added = {
      ...doc.downloads[0]!,
      links: [
        ...doc.downloads[0]!.links,
        { id: null, label: '会员补充', url: 'https://member.example.test/m', password: '' },
      ],
    };
    const proposal = data(
      (
        await save(
          { doc: { ...doc, downloads: [added, ...doc.downloads.slice(1)] }, baseRevision: item.revision },
          'user',
        )
      ).body,
    );
    expect(proposal.outcome).toBe('requested');
    const requestId = proposal.outcome === 'requested' ? proposal.requestId : 0;

    // Meanwhile a moderator removes a reported link: a revision of its own, noted with the reason.
    const dead = doc.downloads[0]!.links[0]!;
    await reportLink(db, dead.id!, users.admin!, '失效');
    const before = (await open()).revision;
    const removed = await call(app, 'POST', `/moderation/reports/link/${dead.id}/resolve`, tokens.editor, {
      action: 'removeLink',
      reason: '链接已失效',
    });
    expect(removed.res.status).toBe(200);
    const now = await open();
    expect(now.revision).toBe(before + 1);
    const recorded = await revisionAt(now.revision);
    expect(recorded).toMatchObject({ changes: ['downloads'], note: '链接已失效' });
    expect(recorded.user?.name).toBe('dl_editor');

    // Both sides changed the downloads: approving is a conflict until the editor overwrites.
    const approve = await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, tokens.editor, {});
    expectFailure(approve, 409, 'EDIT_CONFLICT');
    expect(((approve.body as ApiFailure).data as EditConflict).fields.map((f) => f.field)).toEqual(['downloads']);
    const forced = await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, tokens.editor, {
      overwrite: ['downloads'],
    });
    expect(forced.res.status).toBe(200);
    const urls = docOf(await open()).downloads[0]!.links.map((l) => l.url);
    expect(urls).toContain('https://member.example.test/m');
    // The overwrite brought the removed address back, as a new row without its old reports.
    expect(urls).toContain(dead.url);
    expect(await linkRow(dead.id!)).toBeUndefined();
  });

  it('applies a stale edit of other fields after a dead link was removed, keeping the removal', async () => {
    const item = await open(game, 'user');
    const doc = docOf(item);
    const proposal = data(
      (await save({ doc: { ...doc, titleZh: '下载测试' }, baseRevision: item.revision }, 'user')).body,
    );
    const requestId = proposal.outcome === 'requested' ? proposal.requestId : 0;
    const stale = await open();

    // A moderator removes a dead link; an editor fixes another link's address and adds a mirror.
    const [dead, fixed] = doc.downloads[0]!.links;
    await reportLink(db, dead!.id!, users.admin!, '失效');
    const removed = await call(app, 'POST', `/moderation/reports/link/${dead!.id}/resolve`, tokens.editor, {
      action: 'removeLink',
      reason: '链接已失效',
    });
    expect(removed.res.status).toBe(200);
    const fresh = docOf(await open());
    const links = fresh.downloads[0]!.links.map((l) => (l.id === fixed!.id ? { ...l, url: `${l.url}/v2` } : l));
    links.push({ id: null, label: '镜像', url: 'https://mirror2.example.test/c', password: '' });
    const edited = await save({
      doc: { ...fresh, downloads: [{ ...fresh.downloads[0]!, links }] },
      baseRevision: (await open()).revision,
    });
    expect(edited.res.status).toBe(200);
    const expected = docOf(await open()).downloads;

    // An editor's edit and the member's request, both made before all that, touch only titles.
    const editorEdit = await save({
      doc: { ...docOf(stale), title: 'DL Game (stale edit)' },
      baseRevision: stale.revision,
    });
    expect(editorEdit.res.status, JSON.stringify(editorEdit.body)).toBe(200);
    const approved = await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, tokens.editor, {});
    expect(approved.res.status, JSON.stringify(approved.body)).toBe(200);
    const after = docOf(await open());
    expect(after).toMatchObject({ title: 'DL Game (stale edit)', titleZh: '下载测试' });
    // Nothing of the downloads went back: the link stays removed, the fix and the mirror stay.
    expect(after.downloads).toEqual(expected);
    expect(after.downloads[0]!.links.map((l) => l.url)).not.toContain(dead!.url);
    const latest = await revisionAt((await open()).revision);
    expect(latest.changes).toEqual(['titleZh']);
  });

  it('lets an admin restore a revision with a removed link: it comes back as a new row', async () => {
    const item = await open();
    const doc = docOf(item);
    const gone = doc.downloads[0]!.links.at(-1)!;
    const cut = data(
      (
        await save({
          doc: {
            ...doc,
            downloads: [
              { ...doc.downloads[0]!, links: doc.downloads[0]!.links.slice(0, -1) },
              ...doc.downloads.slice(1),
            ],
          },
          baseRevision: item.revision,
        })
      ).body,
    );
    expect(cut.outcome).toBe('applied');
    const restored = await call(
      app,
      'POST',
      `/creator/items/galgame/${game}/revisions/${item.revision}/restore`,
      tokens.admin,
      {
        note: '误删',
      },
    );
    expect(restored.res.status).toBe(200);
    const back = docOf(await open()).downloads[0]!.links.at(-1)!;
    expect(back).toMatchObject({ label: gone.label, url: gone.url, password: gone.password });
    expect(back.id).not.toBe(gone.id);
    // Restoring it again changes nothing: the restored row is the one the revision names.
    expectFailure(
      await call(app, 'POST', `/creator/items/galgame/${game}/revisions/${item.revision}/restore`, tokens.admin, {
        note: '再次',
      }),
      400,
      'NOTHING_CHANGED',
    );
  });

  it('takes the same new link sent twice against one base as one change', async () => {
    const item = await open();
    const doc = docOf(item);
    const withLink = {
      ...doc,
      downloads: [
        {
          ...doc.downloads[0]!,
          links: [
            ...doc.downloads[0]!.links,
            { id: null, label: '重发', url: 'https://twice.example.test/t', password: '' },
          ],
        },
        ...doc.downloads.slice(1),
      ],
    };
    expect((await save({ doc: withLink, baseRevision: item.revision })).res.status).toBe(200);
    expectFailure(await save({ doc: withLink, baseRevision: item.revision }), 400, 'NOTHING_CHANGED');
    const urls = docOf(await open()).downloads[0]!.links.map((l) => l.url);
    expect(urls.filter((u) => u === 'https://twice.example.test/t')).toHaveLength(1);
  });

  it('makes one game of a create with downloads sent twice', async () => {
    const doc = docOf(await open());
    const fresh = {
      ...doc,
      title: `DL Twice ${Date.now()}`,
      relations: [],
      downloads: doc.downloads.map((d) => ({ ...d, id: null, links: d.links.map((l) => ({ ...l, id: null })) })),
    };
    const first = data(
      (await call<SaveOutcome>(app, 'POST', '/creator/items/galgame', tokens.editor, { doc: fresh })).body,
    );
    const again = data(
      (await call<SaveOutcome>(app, 'POST', '/creator/items/galgame', tokens.editor, { doc: fresh })).body,
    );
    expect(first.outcome).toBe('applied');
    expect(again).toEqual(first);
  });

  it('merges a resubmitted request onto a newer base, so nothing changed since is undone', async () => {
    const item = await open(game, 'user');
    const requested = data(
      (await save({ doc: { ...docOf(item), intro: '会员改写的简介' }, baseRevision: item.revision }, 'user')).body,
    );
    const requestId = requested.outcome === 'requested' ? requested.requestId : 0;
    // Meanwhile an editor renames the game and a moderator removes a dead link.
    const edited = await open();
    await save({ doc: { ...docOf(edited), titleZh: '编辑改的名字' }, baseRevision: edited.revision });
    const dead = docOf(edited).downloads[0]!.links[0]!;
    await reportLink(db, dead.id!, users.creator!, '失效');
    await call(app, 'POST', `/moderation/reports/link/${dead.id}/resolve`, tokens.editor, { action: 'removeLink' });
    await call(app, 'POST', `/creator/update-requests/${requestId}/changes`, tokens.editor, { reason: '请补充来源' });

    // The member sends the request's document again against the newest revision: it is merged onto it.
    const latest = await open(game, 'user');
    const resent = await call(app, 'PUT', `/creator/update-requests/${requestId}`, tokens.user, {
      doc: { ...docOf(item), intro: '会员改写的简介（有来源）' },
      baseRevision: latest.revision,
      note: '来源：官网',
    });
    expect(resent.res.status, JSON.stringify(resent.body)).toBe(200);
    const detail = data(
      (await call<{ changes: string[] }>(app, 'GET', `/creator/update-requests/${requestId}`, tokens.editor)).body,
    );
    expect(detail.changes).toEqual(['intro']);
    expect(
      (await call(app, 'POST', `/creator/update-requests/${requestId}/approve`, tokens.editor, {})).res.status,
    ).toBe(200);
    const after = docOf(await open());
    expect(after).toMatchObject({ intro: '会员改写的简介（有来源）', titleZh: '编辑改的名字' });
    expect(after.downloads[0]!.links.map((l) => l.id)).not.toContain(dead.id);

    // A request whose own change meets a change made since is a conflict when moved, never a silent undo.
    const again = await open(game, 'user');
    const second = data(
      (await save({ doc: { ...docOf(again), titleZh: '会员的名字' }, baseRevision: again.revision }, 'user')).body,
    );
    const secondId = second.outcome === 'requested' ? second.requestId : 0;
    const moved = await open();
    await save({ doc: { ...docOf(moved), titleZh: '编辑又改的名字' }, baseRevision: moved.revision });
    expectFailure(
      await call(app, 'PUT', `/creator/update-requests/${secondId}`, tokens.user, {
        doc: { ...docOf(again), titleZh: '会员的名字' },
        baseRevision: (await open()).revision,
        note: '',
      }),
      409,
      'EDIT_CONFLICT',
    );
  });

  it('gives revisions and requests made before downloads were in the document the game’s downloads', async () => {
    const current = docOf(await open());
    const { downloads: _omitted, ...old } = current;
    await db
      .updateTable('catalogue_revision')
      .set({ doc: JSON.stringify(old) })
      .where('item_type', '=', 'galgame')
      .where('item_id', '=', game)
      .execute();
    await addRevisionDownloads(db);
    const rows = await db
      .selectFrom('catalogue_revision')
      .select('doc')
      .where('item_type', '=', 'galgame')
      .where('item_id', '=', game)
      .execute();
    for (const row of rows) expect((JSON.parse(row.doc) as GalgameDoc).downloads).toEqual(current.downloads);
    // An edit against an upgraded base merges as usual.
    const item = await open();
    const outcome = data((await save({ doc: { ...docOf(item), titleZh: '下载测试' }, baseRevision: 1 })).body);
    expect(outcome.outcome).toBe('applied');
    const detail = await revisionAt(appliedRevision(outcome));
    expect(detail.changes).toEqual(['titleZh']);
  });
});
