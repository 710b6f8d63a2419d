import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../src/shared/api.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import {
  EMOJI_ADD_BATCH_MAX,
  EMOJI_SET_MAX_EMOJIS,
  EMOJI_SET_MAX_OLD_NAMES,
  EMOJI_SETS_PER_CREATOR,
  type EmojiSetSummary,
  type EmojiSetWithEmojis,
  type EmojiSource,
} from '../../src/shared/emoji/emoji.ts';
import type { UploadAddress } from '../../src/shared/media/upload.ts';
import type { LocalStorage } from '../../src/server/platform/storage/storage.local.ts';
import { call, data, registerUser } from '../support/accounts.ts';
import { startSignedPutServer, type SignedPutServer } from '../support/signed-put.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

type Answer = Awaited<ReturnType<typeof call>>;

describe('emoji API: sets, emojis and their management', () => {
  let app: TestApp;
  let storage: LocalStorage;
  let server: SignedPutServer;
  let base: string;
  let member: string;
  let creator: string;
  let otherCreator: string;
  let editor: string;
  /** A 16×16 webp of one colour. */
  const webp = async (background: string) =>
    sharp({ create: { width: 16, height: 16, channels: 4, background } })
      .webp()
      .toBuffer();

  async function account(name: string, group: UserGroup): Promise<string> {
    const { session } = await registerUser(app, name);
    await app.ctx.db
      .updateTable('users')
      .set({ user_group: group })
      .where('user_id', '=', session.user.userId)
      .execute();
    return session.hikariAccessToken;
  }

  beforeAll(async () => {
    app = await createTestApp();
    server = await startSignedPutServer(app);
    ({ storage, base } = server);
    member = await account('EmojiFan', 'user');
    creator = await account('EmojiMaker', 'creator');
    otherCreator = await account('OtherMaker', 'creator');
    editor = await account('EmojiEditor', 'editor');
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  /** Uploads a small webp for a set as POST /api/upload and the signed PUT do; answers its public address. */
  async function upload(token: string, setId: number, colour = '#39c5bb'): Promise<string> {
    // Rate limits of uploads are tested with the upload API; here they would only count the test's own.
    await app.ctx.db.deleteFrom('rate_limit').execute();
    const address = data(
      (await call<UploadAddress>(app, 'POST', '/upload', token, { type: 'emoji', id: setId, format: 'webp' })).body,
    );
    const url = new URL(address.url);
    const res = await fetch(`${base}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/webp' },
      body: new Uint8Array(await webp(colour)),
    });
    expect(res.status).toBe(200);
    return address.publicUrl;
  }

  const createSet = (token: string | undefined, name: unknown) =>
    call<EmojiSetSummary>(app, 'POST', '/emoji/emoji-set', token, { name });
  const addEmojis = (token: string | undefined, emojiSetId: unknown, emojis: unknown) =>
    call<EmojiSetWithEmojis>(app, 'POST', '/emoji/emoji-set/emojis', token, { emojiSetId, emojis });
  const updateSet = (token: string | undefined, id: number | string, updatedEmojiSet: unknown) =>
    call<EmojiSetWithEmojis>(app, 'PUT', `/emoji/emoji-set/${id}`, token, { updatedEmojiSet });
  const deleteEmoji = (token: string | undefined, id: number | string, emojiSetId: unknown) =>
    call<EmojiSetWithEmojis>(app, 'DELETE', `/emoji/${id}`, token, { emojiSetId });
  const deleteSet = (token: string | undefined, id: number | string) =>
    call<{ deleted: true }>(app, 'DELETE', `/emoji/emoji-set/${id}`, token);
  const listSets = async (token: string) =>
    data((await call<EmojiSetSummary[]>(app, 'GET', '/emoji/emoji-set/list', token)).body);
  const getSet = (token: string | undefined, query: string) =>
    call<EmojiSetWithEmojis>(app, 'GET', `/emoji/emoji-set?${query}`, token);
  const getEmoji = (set: string, name: string, token?: string) =>
    call<EmojiSource>(
      app,
      'GET',
      `/emoji/?emojiSetName=${encodeURIComponent(set)}&emojiName=${encodeURIComponent(name)}`,
      token,
    );

  /** A new set of `creator` (or `token`), answered as its summary. */
  async function newSet(name: string, token = creator): Promise<EmojiSetSummary> {
    const { res, body } = await createSet(token, name);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return data(body);
  }

  /** A set filled with emojis of these names (each with its own uploaded image). */
  async function filledSet(name: string, names: string[], token = creator): Promise<EmojiSetWithEmojis> {
    const set = await newSet(name, token);
    const emojis = [];
    for (const emojiName of names) emojis.push({ name: emojiName, src: await upload(token, set.id) });
    const { res, body } = await addEmojis(token, set.id, emojis);
    expect(res.status, JSON.stringify(body)).toBe(200);
    return data(body);
  }

  const expectFailure = (answer: Answer, status: number, code: ApiFailure['code']) => {
    expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
  };

  it('keeps visitors out of everything but one emoji’s source (401), and members out of managing (403)', async () => {
    const set = await filledSet('gate', ['ok']);
    for (const answer of [
      await call(app, 'GET', '/emoji/emoji-set/list'),
      await getSet(undefined, `emojiSetId=${set.emojiSet.id}`),
      await createSet(undefined, 'visitor'),
      await addEmojis(undefined, set.emojiSet.id, [{ name: 'x', src: set.emojis[0]!.src }]),
      await updateSet(undefined, set.emojiSet.id, { name: 'visitor' }),
      await deleteEmoji(undefined, set.emojis[0]!.id, set.emojiSet.id),
      await deleteSet(undefined, set.emojiSet.id),
    ]) {
      expectFailure(answer, 401, 'UNAUTHORIZED');
    }
    const visitorSource = await getEmoji('gate', 'ok');
    expect(visitorSource.res.status).toBe(200);

    // Members read the sets (the picker) but manage none of them.
    expect((await listSets(member)).find((s) => s.id === set.emojiSet.id)).toMatchObject({ canManage: false });
    expect((await getSet(member, `emojiSetId=${set.emojiSet.id}`)).res.status).toBe(200);
    for (const answer of [
      await createSet(member, 'members-set'),
      await addEmojis(member, set.emojiSet.id, [{ name: 'x', src: set.emojis[0]!.src }]),
      await updateSet(member, set.emojiSet.id, { name: 'taken-over' }),
      await deleteEmoji(member, set.emojis[0]!.id, set.emojiSet.id),
      await deleteSet(member, set.emojiSet.id),
      // Even for a set that does not exist: the group is checked first.
      await deleteSet(member, 999_999),
    ]) {
      expectFailure(answer, 403, 'FORBIDDEN');
    }
    expect((await getSet(member, `emojiSetId=${set.emojiSet.id}`)).body).toMatchObject({
      data: { emojiSet: { name: 'gate', emojiCount: 1 } },
    });
  });

  it('creates a set, fills it with uploaded images, and shows it to members and one emoji to visitors', async () => {
    const created = await createSet(creator, 'hikari-test');
    expect(created.res.status).toBe(201);
    expect(created.body.code).toBe('CREATED');
    const set = data(created.body);
    expect(set).toMatchObject({ name: 'hikari-test', emojiCount: 0, cover: null, canManage: true });
    expect(set.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const srcs = [await upload(creator, set.id, '#39c5bb'), await upload(creator, set.id, '#ff6b81')];
    expect(srcs[0]).toMatch(new RegExp(`^${app.ctx.config.imageBedUrl}/emoji/${set.id}/[A-Za-z0-9_-]+\\.webp$`));
    const added = await addEmojis(creator, set.id, [
      { name: 'smile', src: srcs[0] },
      { name: '哭', src: srcs[1] },
      { name: 'smile.2', src: srcs[0] },
    ]);
    expect(added.res.status).toBe(200);
    const filled = data(added.body);
    expect(filled.emojis.map((e) => [e.name, e.order, e.src, e.emojiSetId])).toEqual([
      ['smile', 0, srcs[0], set.id],
      ['哭', 1, srcs[1], set.id],
      ['smile.2', 2, srcs[0], set.id],
    ]);
    expect(filled.emojiSet).toMatchObject({ id: set.id, emojiCount: 3, cover: srcs[0], canManage: true });
    expect(filled.emojiSet.updatedAt > set.updatedAt).toBe(true);

    const listed = (await listSets(member)).find((s) => s.id === set.id);
    expect(listed).toEqual({ ...filled.emojiSet, canManage: false });
    expect((await listSets(otherCreator)).find((s) => s.id === set.id)?.canManage).toBe(false);
    expect((await listSets(editor)).find((s) => s.id === set.id)?.canManage).toBe(true);

    const byName = data((await getSet(member, `emojiSetName=hikari-test`)).body);
    expect(byName).toEqual({ emojiSet: { ...filled.emojiSet, canManage: false }, emojis: filled.emojis });
    // An id wins over a name; an empty value counts as not given.
    const byId = data((await getSet(member, `emojiSetId=${set.id}&emojiSetName=gate`)).body);
    expect(byId.emojiSet.id).toBe(set.id);
    expect(data((await getSet(member, `emojiSetId=&emojiSetName=hikari-test`)).body).emojiSet.id).toBe(set.id);

    const source = await getEmoji('hikari-test', '哭');
    expect(source.res.status).toBe(200);
    expect(source.res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(data(source.body)).toEqual({
      id: filled.emojis[1]!.id,
      name: '哭',
      src: srcs[1],
      emojiSetId: set.id,
      order: 1,
      code: 'hikari-test/哭',
      setUpdatedAt: filled.emojiSet.updatedAt,
    });
    const stored = await storage.head(new URL(srcs[1]!).pathname.replace(/^\/media\//, ''));
    expect(stored?.contentType).toBe('image/webp');
  });

  it('refuses bad names: wrong characters, control characters, too long, not text', async () => {
    const bad: unknown[] = [
      '',
      '   ',
      '.',
      '...',
      'a/b',
      'a b',
      'a]b',
      '[emoji',
      'a?b',
      'x'.repeat(33),
      'bad\u0000',
      'tab\tname',
      '\u202Eevil',
      'lone\uD800',
      '😀',
      'x'.repeat(10_000),
      123,
      null,
      [],
      { name: 'a' },
      true,
    ];
    for (const name of bad) expectFailure(await createSet(creator, name), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'POST', '/emoji/emoji-set', creator, {}), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'POST', '/emoji/emoji-set', creator, ['n']), 400, 'VALIDATION_FAILED');
    const tooLong = await createSet(creator, 'x'.repeat(33));
    expect(tooLong.body.message).toContain('32');

    // Letters of any script, marks, digits, '_', '.', '-'; trimmed and NFC-normalised.
    const unicode = data((await createSet(creator, ' 表情_1.a-b ')).body);
    expect(unicode.name).toBe('表情_1.a-b');
    const composed = data((await createSet(creator, 'cafe\u0301')).body);
    expect(composed.name).toBe('caf\u00e9');
    expectFailure(await createSet(creator, 'caf\u00e9'), 409, 'CONFLICT');
    expect(data((await getSet(member, `emojiSetName=${encodeURIComponent('cafe\u0301')}`)).body).emojiSet.id).toBe(
      composed.id,
    );

    // Queries follow the same rules.
    expectFailure(await getEmoji('a b', 'x'), 400, 'VALIDATION_FAILED');
    expectFailure(await getEmoji('x'.repeat(33), 'x'), 400, 'VALIDATION_FAILED');
    expectFailure(await call(app, 'GET', '/emoji/?emojiSetName=gate'), 400, 'VALIDATION_FAILED');
    expectFailure(await getSet(member, ''), 400, 'VALIDATION_FAILED');
    expectFailure(await getSet(member, 'emojiSetId=&emojiSetName='), 400, 'VALIDATION_FAILED');
    for (const id of ['abc', '0', '-1', '1.5', '0x10', '012']) {
      expectFailure(await getSet(member, `emojiSetId=${id}`), 400, 'VALIDATION_FAILED');
      expectFailure(await deleteSet(creator, id), 400, 'VALIDATION_FAILED');
      expectFailure(await updateSet(creator, id, { name: 'x' }), 400, 'VALIDATION_FAILED');
      expectFailure(await deleteEmoji(creator, id, 1), 400, 'VALIDATION_FAILED');
    }
  });

  it('refuses bodies of the wrong shape, too many emojis at once and oversized requests', async () => {
    const set = await newSet('shapes');
    const src = await upload(creator, set.id);
    const bad: [unknown, unknown][] = [
      [String(set.id), [{ name: 'a', src }]],
      [true, [{ name: 'a', src }]],
      [set.id, []],
      [set.id, 'a'],
      [set.id, [{ name: 'a' }]],
      [set.id, [{ src }]],
      [set.id, [{ name: 'a', src: 5 }]],
      [set.id, [{ name: 'a', src: '' }]],
      [set.id, [{ name: 'a b', src }]],
      [set.id, [{ name: 'a', src: `${src}\n` + 'x'.repeat(3000) }]],
      [set.id, [null]],
      [set.id, Array.from({ length: EMOJI_ADD_BATCH_MAX + 1 }, (_, i) => ({ name: `e${i}`, src }))],
    ];
    for (const [emojiSetId, emojis] of bad) {
      expectFailure(await addEmojis(creator, emojiSetId, emojis), 400, 'VALIDATION_FAILED');
    }
    const many = await addEmojis(
      creator,
      set.id,
      Array.from({ length: EMOJI_ADD_BATCH_MAX + 1 }, (_, i) => ({ name: `e${i}`, src })),
    );
    expect(many.body.message).toContain(String(EMOJI_ADD_BATCH_MAX));

    const huge = await addEmojis(creator, set.id, [{ name: 'a', src: `${src}${'x'.repeat(1024 * 1024)}` }]);
    expectFailure(huge, 413, 'PAYLOAD_TOO_LARGE');

    for (const body of [{}, { updatedEmojiSet: {} }, { updatedEmojiSet: null }, { updatedEmojiSet: 'x' }]) {
      expectFailure(await call(app, 'PUT', `/emoji/emoji-set/${set.id}`, creator, body), 400, 'VALIDATION_FAILED');
    }
    for (const order of [-1, '1', 1.5, null, true, 10_001]) {
      expectFailure(await updateSet(creator, set.id, { order }), 400, 'VALIDATION_FAILED');
    }
    for (const emojiIds of [
      '1',
      [0],
      ['1'],
      [1.5],
      Array.from({ length: EMOJI_SET_MAX_EMOJIS + 1 }, (_, i) => i + 1),
    ]) {
      expectFailure(await updateSet(creator, set.id, { emojiIds }), 400, 'VALIDATION_FAILED');
    }
    for (const emojiSetId of [undefined, '1', 0]) {
      expectFailure(await deleteEmoji(creator, 1, emojiSetId), 400, 'VALIDATION_FAILED');
    }
    expect(data((await getSet(creator, `emojiSetId=${set.id}`)).body).emojis).toEqual([]);
  });

  it('takes only images uploaded for the same set, stored and checked; all or none', async () => {
    const set = await newSet('sources');
    const other = await newSet('sources-other');
    const good = await upload(creator, set.id);
    const foreign = await upload(creator, other.id);
    const bed = app.ctx.config.imageBedUrl;
    const file = good.split('/').pop()!;
    const refused = [
      `https://evil.example/emoji/${set.id}/${file}`,
      good.replace(/^http:/, 'https:'),
      foreign,
      `${bed}/emoji/${set.id}/../${other.id}/${foreign.split('/').pop()!}`,
      `${bed}/emoji/${other.id}/../${set.id}/${file}`,
      `${good}?v=1`,
      `${good}#x`,
      `${bed}/emoji/${set.id}/${file.replace('.webp', '.svg')}`,
      `${bed}/emoji/${set.id}/sub/${file}`,
      `${bed}/emoji/${set.id}/.${file}`,
      `${bed}/comment/${set.id}/${file}`,
      `${bed}/emoji/${set.id}0/${file}`,
      `javascript:alert(1)`,
    ];
    for (const src of refused) {
      const answer = await addEmojis(creator, set.id, [
        { name: 'fine', src: good },
        { name: 'bad', src },
      ]);
      expectFailure(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.message, src).toContain('bad');
      expect((answer.body as ApiFailure).data?.issues?.[0]?.path).toBe('emojis.1.src');
    }
    const missing = await addEmojis(creator, set.id, [
      { name: 'fine', src: good },
      { name: 'ghost', src: `${bed}/emoji/${set.id}/${file.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}` },
    ]);
    expectFailure(missing, 400, 'UPLOAD_INCOMPLETE');
    expect(missing.body.message).toContain('ghost');
    // Nothing of a refused batch was kept.
    expect(data((await getSet(creator, `emojiSetId=${set.id}`)).body).emojiSet.emojiCount).toBe(0);
    expect((await addEmojis(creator, set.id, [{ name: 'fine', src: good }])).res.status).toBe(200);
  });

  it('refuses a name the set already has, or one repeated in the batch, naming it (409); case counts', async () => {
    const set = await filledSet('names', ['smile']);
    const src = set.emojis[0]!.src;
    const repeated = await addEmojis(creator, set.emojiSet.id, [
      { name: 'wink', src },
      { name: 'wink', src },
    ]);
    expectFailure(repeated, 409, 'CONFLICT');
    expect(repeated.body.message).toContain('wink');
    const taken = await addEmojis(creator, set.emojiSet.id, [
      { name: 'new', src },
      { name: 'smile', src },
    ]);
    expectFailure(taken, 409, 'CONFLICT');
    expect(taken.body.message).toContain('smile');
    expect((taken.body as ApiFailure).data?.issues?.[0]?.path).toBe('emojis.1.name');
    const cased = await addEmojis(creator, set.emojiSet.id, [{ name: 'Smile', src }]);
    expect(data(cased.body).emojis.map((e) => e.name)).toEqual(['smile', 'Smile']);
  });

  it('never goes past the cap of a set or repeats a name, however many adds run at once', async () => {
    const set = await newSet('crowded');
    const src = await upload(creator, set.id);
    const fill = EMOJI_SET_MAX_EMOJIS - 10;
    for (let start = 0; start < fill; start += EMOJI_ADD_BATCH_MAX) {
      const count = Math.min(EMOJI_ADD_BATCH_MAX, fill - start);
      const batch = Array.from({ length: count }, (_, i) => ({ name: `f${start + i}`, src }));
      expect((await addEmojis(creator, set.id, batch)).res.status).toBe(200);
    }
    const racers = await Promise.all(
      [0, 1, 2, 3].map((r) =>
        addEmojis(
          creator,
          set.id,
          Array.from({ length: 5 }, (_, i) => ({ name: `r${r}-${i}`, src })),
        ),
      ),
    );
    expect(racers.map((r) => r.res.status).sort()).toEqual([200, 200, 409, 409]);
    for (const loser of racers.filter((r) => r.res.status === 409)) {
      expect(loser.body.code).toBe('CONFLICT');
      expect(loser.body.message).toContain(String(EMOJI_SET_MAX_EMOJIS));
    }
    const full = data((await getSet(creator, `emojiSetId=${set.id}`)).body);
    expect(full.emojis).toHaveLength(EMOJI_SET_MAX_EMOJIS);
    expect(full.emojis.map((e) => e.order)).toEqual(Array.from({ length: EMOJI_SET_MAX_EMOJIS }, (_, i) => i));
    expectFailure(await addEmojis(creator, set.id, [{ name: 'one-more', src }]), 409, 'CONFLICT');

    const other = await newSet('same-name-race');
    const otherSrc = await upload(creator, other.id);
    const same = await Promise.all(
      [0, 1, 2].map(() => addEmojis(creator, other.id, [{ name: 'same', src: otherSrc }])),
    );
    expect(same.map((r) => r.res.status).sort()).toEqual([200, 409, 409]);
    for (const loser of same.filter((r) => r.res.status === 409)) expect(loser.body.message).toContain('same');
    expect(data((await getSet(creator, `emojiSetId=${other.id}`)).body).emojis.map((e) => e.name)).toEqual(['same']);
  });

  it('keeps a creator to their own sets (403), while editors manage every set', async () => {
    const set = await filledSet('mine', ['a', 'b']);
    const id = set.emojiSet.id;
    // Nor may another creator upload into the set's folder.
    const address = await call(app, 'POST', '/upload', otherCreator, { type: 'emoji', id, format: 'webp' });
    expectFailure(address, 403, 'FORBIDDEN');
    const theirs = await upload(creator, id);
    for (const answer of [
      await addEmojis(otherCreator, id, [{ name: 'c', src: theirs }]),
      await updateSet(otherCreator, id, { name: 'not-mine' }),
      await updateSet(otherCreator, id, { order: 0 }),
      await deleteEmoji(otherCreator, set.emojis[0]!.id, id),
      await deleteSet(otherCreator, id),
    ]) {
      expectFailure(answer, 403, 'FORBIDDEN');
    }
    expect(data((await getSet(otherCreator, `emojiSetId=${id}`)).body).emojiSet.canManage).toBe(false);

    const bySomeoneElse = await upload(editor, id);
    const added = await addEmojis(editor, id, [{ name: 'c', src: bySomeoneElse }]);
    expect(data(added.body).emojis.map((e) => e.name)).toEqual(['a', 'b', 'c']);
    expect(data(added.body).emojiSet.canManage).toBe(true);
    expect(data((await updateSet(editor, id, { name: 'edited' })).body).emojiSet.name).toBe('edited');
    expect(data((await deleteEmoji(editor, set.emojis[0]!.id, id)).body).emojis.map((e) => e.name)).toEqual(['b', 'c']);
    // The creator still manages it after an editor's changes.
    expect(data((await updateSet(creator, id, { name: 'mine-again' })).body).emojiSet.canManage).toBe(true);
    expect((await deleteSet(editor, id)).res.status).toBe(200);
  });

  it('keeps earlier names of a renamed set leading to it; no other set can take them', async () => {
    const set = await filledSet('alpha', ['smile']);
    const id = set.emojiSet.id;
    // A source read (and shared) before the rename.
    expect(data((await getEmoji('alpha', 'smile')).body).code).toBe('alpha/smile');

    const renamed = data((await updateSet(creator, id, { name: 'beta' })).body);
    expect(renamed.emojiSet.name).toBe('beta');
    expect(renamed.emojiSet.updatedAt > set.emojiSet.updatedAt).toBe(true);
    const old = data((await getEmoji('alpha', 'smile')).body);
    expect(old).toMatchObject({ code: 'beta/smile', emojiSetId: id, setUpdatedAt: renamed.emojiSet.updatedAt });
    expect(data((await getEmoji('beta', 'smile')).body).id).toBe(old.id);
    expect(data((await getSet(member, 'emojiSetName=alpha')).body).emojiSet).toMatchObject({ id, name: 'beta' });

    expectFailure(await createSet(otherCreator, 'alpha'), 409, 'CONFLICT');
    expectFailure(await createSet(otherCreator, 'beta'), 409, 'CONFLICT');
    const another = await newSet('gamma', otherCreator);
    const clash = await updateSet(otherCreator, another.id, { name: 'alpha' });
    expectFailure(clash, 409, 'CONFLICT');
    expect(clash.body.message).toContain('alpha');

    // Back to an earlier name of its own: allowed, and no name is lost.
    const back = data((await updateSet(creator, id, { name: 'alpha' })).body);
    expect(back.emojiSet.name).toBe('alpha');
    expect(data((await getEmoji('beta', 'smile')).body).code).toBe('alpha/smile');
    // The same name again changes nothing.
    const same = data((await updateSet(creator, id, { name: 'alpha' })).body);
    expect(same.emojiSet.updatedAt).toBe(back.emojiSet.updatedAt);

    // Earlier names are kept for good, so their number is capped.
    let refused: Answer | null = null;
    for (let i = 0; i < EMOJI_SET_MAX_OLD_NAMES + 2 && !refused; i++) {
      const answer = await updateSet(creator, id, { name: `alpha-${i}` });
      if (answer.res.status !== 200) refused = answer;
    }
    expect(refused).not.toBeNull();
    expectFailure(refused!, 409, 'CONFLICT');
    const names = await app.ctx.db
      .selectFrom('emoji_set_alias')
      .select('name')
      .where('emoji_set_id', '=', id)
      .execute();
    expect(names).toHaveLength(EMOJI_SET_MAX_OLD_NAMES + 1);
    expect(data((await updateSet(creator, id, { name: 'beta' })).body).emojiSet.name).toBe('beta');
  });

  it('moves a set among the sets and reorders its emojis; updatedAt moves with every change', async () => {
    const first = await newSet('order-1');
    const second = await newSet('order-2');
    const third = await filledSet('order-3', ['a', 'b', 'c']);
    const positions = async () => (await listSets(member)).map((s) => [s.name, s.order] as const);
    const before = await positions();
    expect(before.map(([, order]) => order)).toEqual(before.map((_, i) => i));
    expect(before.slice(-3).map(([name]) => name)).toEqual(['order-1', 'order-2', 'order-3']);

    const moved = data((await updateSet(creator, third.emojiSet.id, { order: 0 })).body);
    expect(moved.emojiSet.order).toBe(0);
    expect(moved.emojiSet.updatedAt > third.emojiSet.updatedAt).toBe(true);
    const after = await positions();
    expect(after[0]).toEqual(['order-3', 0]);
    expect(after.map(([, order]) => order)).toEqual(after.map((_, i) => i));
    // Past the end means last.
    data((await updateSet(creator, first.id, { order: 10_000 })).body);
    const last = await positions();
    expect(last.at(-1)).toEqual(['order-1', last.length - 1]);
    expect(last.at(-2)?.[0]).toBe('order-2');
    // The other sets only shifted: their updatedAt stays.
    expect((await listSets(member)).find((s) => s.id === second.id)?.updatedAt).toBe(second.updatedAt);

    const [a, b, c] = third.emojis.map((e) => e.id) as [number, number, number];
    const reordered = data((await updateSet(creator, third.emojiSet.id, { emojiIds: [c, a, b] })).body);
    expect(reordered.emojis.map((e) => [e.name, e.order])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expect(reordered.emojiSet.cover).toBe(third.emojis[2]!.src);
    expect(reordered.emojiSet.updatedAt > moved.emojiSet.updatedAt).toBe(true);
    const unchanged = data((await updateSet(creator, third.emojiSet.id, { emojiIds: [c, a, b] })).body);
    expect(unchanged.emojiSet.updatedAt).toBe(reordered.emojiSet.updatedAt);

    const foreign = data((await getSet(creator, 'emojiSetName=gate')).body).emojis[0]!.id;
    for (const emojiIds of [[c, a], [c, a, b, b], [c, a, a], [c, a, foreign], []]) {
      const answer = await updateSet(creator, third.emojiSet.id, { emojiIds });
      expectFailure(answer, 400, 'VALIDATION_FAILED');
    }
    // Everything at once, in one change.
    const all = data(
      (await updateSet(creator, third.emojiSet.id, { name: 'order-three', order: 1, emojiIds: [a, b, c] })).body,
    );
    expect(all.emojiSet).toMatchObject({ name: 'order-three', order: 1 });
    expect(all.emojis.map((e) => e.name)).toEqual(['a', 'b', 'c']);
    expect(all.emojiSet.updatedAt > reordered.emojiSet.updatedAt).toBe(true);
  });

  it('deletes one emoji of the named set, closes the gap and drops its image and its shared source', async () => {
    const set = await filledSet('deletions', ['a', 'b', 'c']);
    const id = set.emojiSet.id;
    const a = set.emojis[0]!;
    const b = set.emojis[1]!;
    const keyOf = (src: string) => src.slice(app.ctx.config.imageBedUrl.length + 1);
    // Shared reads keep this answer until the set changes.
    expect((await getEmoji('deletions', 'b')).res.status).toBe(200);

    const elsewhere = await newSet('deletions-other');
    expectFailure(await deleteEmoji(creator, b.id, elsewhere.id), 404, 'NOT_FOUND');
    expectFailure(await deleteEmoji(creator, b.id, 999_999), 404, 'NOT_FOUND');
    expectFailure(await deleteEmoji(creator, 999_999, id), 404, 'NOT_FOUND');

    const after = data((await deleteEmoji(creator, b.id, id)).body);
    expect(after.emojis.map((e) => [e.name, e.order])).toEqual([
      ['a', 0],
      ['c', 1],
    ]);
    expect(after.emojiSet.emojiCount).toBe(2);
    expect(after.emojiSet.updatedAt > set.emojiSet.updatedAt).toBe(true);
    expectFailure(await getEmoji('deletions', 'b'), 404, 'NOT_FOUND');
    expect(await storage.head(keyOf(b.src))).toBeNull();
    expect(await storage.head(keyOf(a.src))).not.toBeNull();
    expectFailure(await deleteEmoji(creator, b.id, id), 404, 'NOT_FOUND');

    // An image two emojis show stays until the last of them goes.
    data((await addEmojis(creator, id, [{ name: 'a2', src: a.src }])).body);
    data((await deleteEmoji(creator, a.id, id)).body);
    expect(await storage.head(keyOf(a.src))).not.toBeNull();
    expect(data((await getEmoji('deletions', 'a2')).body).src).toBe(a.src);
  });

  it('deletes a set with its emojis, names and images; its names become free', async () => {
    const doomed = await filledSet('doomed', ['x', 'y']);
    const id = doomed.emojiSet.id;
    await updateSet(creator, id, { name: 'doomed-now' });
    const keys = doomed.emojis.map((e) => e.src.slice(app.ctx.config.imageBedUrl.length + 1));
    expect((await getEmoji('doomed', 'x')).res.status).toBe(200);
    const order = (await listSets(member)).map((s) => s.id);

    const answer = await deleteSet(creator, id);
    expect(answer.res.status).toBe(200);
    expect(data(answer.body)).toEqual({ deleted: true });
    expectFailure(await getSet(member, `emojiSetId=${id}`), 404, 'NOT_FOUND');
    expectFailure(await getSet(member, 'emojiSetName=doomed'), 404, 'NOT_FOUND');
    expectFailure(await getEmoji('doomed', 'x'), 404, 'NOT_FOUND');
    expectFailure(await getEmoji('doomed-now', 'y'), 404, 'NOT_FOUND');
    for (const key of keys) expect(await storage.head(key)).toBeNull();
    for (const table of ['emoji', 'emoji_set_alias'] as const) {
      const left = await app.ctx.db.selectFrom(table).select('emoji_set_id').where('emoji_set_id', '=', id).execute();
      expect(left, table).toEqual([]);
    }
    const remaining = await listSets(member);
    expect(remaining.map((s) => s.id)).toEqual(order.filter((other) => other !== id));
    expect(remaining.map((s) => s.order)).toEqual(remaining.map((_, i) => i));
    expectFailure(await deleteSet(creator, id), 404, 'NOT_FOUND');
    expect((await createSet(otherCreator, 'doomed')).res.status).toBe(201);
  });

  it('answers 404 for sets and emojis that do not exist', async () => {
    expectFailure(await getSet(member, 'emojiSetId=999999'), 404, 'NOT_FOUND');
    const unknown = await getSet(member, 'emojiSetName=nowhere');
    expectFailure(unknown, 404, 'NOT_FOUND');
    expect(unknown.body.message).toContain('nowhere');
    const missing = await getEmoji('gate', 'nothing');
    expectFailure(missing, 404, 'NOT_FOUND');
    expect(missing.body.message).toContain('gate/nothing');
    expect(missing.res.headers.get('cache-control')).toBe('no-store');
    expectFailure(await getEmoji('nowhere', 'ok'), 404, 'NOT_FOUND');
    expectFailure(
      await addEmojis(creator, 999_999, [{ name: 'a', src: 'https://x.example/a.webp' }]),
      404,
      'NOT_FOUND',
    );
    expectFailure(await updateSet(creator, 999_999, { name: 'x' }), 404, 'NOT_FOUND');
    expectFailure(await updateSet(editor, 999_999, { order: 0 }), 404, 'NOT_FOUND');
    expectFailure(await deleteSet(editor, 999_999), 404, 'NOT_FOUND');
  });

  it(`lets a creator create at most ${EMOJI_SETS_PER_CREATOR} sets; editors are not counted`, async () => {
    const busy = await account('BusyMaker', 'creator');
    for (let i = 0; i < EMOJI_SETS_PER_CREATOR; i++) expect((await createSet(busy, `busy-${i}`)).res.status).toBe(201);
    const refused = await createSet(busy, 'busy-more');
    expectFailure(refused, 409, 'CONFLICT');
    expect(refused.body.message).toContain(String(EMOJI_SETS_PER_CREATOR));
    expect((await createSet(editor, 'editors-own')).res.status).toBe(201);
  });
});
