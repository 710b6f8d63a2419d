import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstComments } from '../../src/components/comments/first-comments.ts';
import { pageTags } from '../../src/server/http/page-cache-policy.ts';
import { nextId } from '../../src/server/db/ids.ts';
import { createComment } from '../../src/server/modules/comments/comments.service.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// What a page's comment section starts with (the galgame, person, character and producer pages): the
// first page as every visitor sees it, its emoji resolved on the server, and the cache tags that drop it.

describe('the first comments of a page', () => {
  let app: TestApp;
  let member: { id: string; group: 'user' };
  let gameId: number;
  let draftId: number;
  let setId: number;
  const at = new Date(Date.now() - 60_000).toISOString();

  async function game(status: 'published' | 'draft'): Promise<number> {
    const id = await nextId(app.ctx.db, 'galgame_id');
    await app.ctx.db
      .insertInto('galgame')
      .values({ id, title: `Game ${id}`, title_zh: `测试 ${id}`, status, created_at: at, updated_at: at })
      .execute();
    return id;
  }

  const deps = () => ({ db: app.ctx.db, targets: app.ctx.targets, storage: app.ctx.storage, jobs: app.ctx.jobs });
  const comment = (content: string, parentId?: number) =>
    createComment(deps(), member, {
      targetType: 'galgame',
      targetId: gameId,
      content,
      ...(parentId ? { parentId } : {}),
    });

  beforeAll(async () => {
    app = await createTestApp();
    const user = await createUser(
      app.ctx.db,
      { name: 'Reader', email: 'reader@example.test', passwordHash: 'x', group: 'user' },
      new Date(at),
    );
    member = { id: user.id, group: 'user' };
    gameId = await game('published');
    draftId = await game('draft');
    setId = await nextId(app.ctx.db, 'emoji_set_id');
    await app.ctx.db
      .insertInto('emoji_set')
      .values({ id: setId, name: 'faces', position: 0, created_by: null, created_at: at, updated_at: at })
      .execute();
    await app.ctx.db
      .insertInto('emoji_set_alias')
      .values({ name: 'faces', emoji_set_id: setId, created_at: at })
      .execute();
    await app.ctx.db
      .insertInto('emoji')
      .values({
        id: await nextId(app.ctx.db, 'emoji_id'),
        emoji_set_id: setId,
        name: 'smile',
        image_key: `emoji/${setId}/smile.webp`,
        position: 0,
        created_at: at,
      })
      .execute();
  });
  afterAll(() => app?.close());

  it('is null for a target that takes no comments or that a visitor may not see', async () => {
    expect(await firstComments(app.ctx, 'galgame', draftId)).toBeNull();
    expect(await firstComments(app.ctx, 'galgame', 999_999)).toBeNull();
    expect(await firstComments(app.ctx, 'section', 1)).toBeNull();
  });

  it('reads page 1 without viewer flags, resolves its emoji, and names what it shows', async () => {
    const root = await comment('好看 [emoji:faces/smile] [emoji:faces/gone]');
    await comment('同意 [emoji:faces/smile]', root.id);
    app.ctx.reads.invalidate([pageTags.comments('galgame', gameId)]);

    const first = await firstComments(app.ctx, 'galgame', gameId);
    expect(first?.page.total).toBe(2);
    expect(first?.page.items.map((item) => [item.id, item.replies.length])).toEqual([[root.id, 1]]);
    // The same for everyone: nobody's likes or rights, even the author's.
    expect(first?.page.items[0]?.viewer).toEqual({ isLiked: false, canDelete: false, canPin: false });
    expect(first?.emoji).toEqual({ 'faces/smile': app.ctx.storage.publicUrl(`emoji/${setId}/smile.webp`) });
    expect(first?.tags).toEqual([pageTags.comments('galgame', gameId), pageTags.emojiSet(setId)]);
  });

  it('is shared until a comment of the target changes', async () => {
    const before = await firstComments(app.ctx, 'galgame', gameId);
    await comment('再来一条');
    // Within the shared read's lifetime the page is the one read before…
    expect(await firstComments(app.ctx, 'galgame', gameId)).toBe(before);
    // …until the tag the comment routes announce is dropped.
    app.ctx.reads.invalidate([pageTags.comments('galgame', gameId)]);
    const after = await firstComments(app.ctx, 'galgame', gameId);
    expect(after?.page.total).toBe((before?.page.total ?? 0) + 1);
    expect(after?.page.items.some((item) => item.content === '再来一条')).toBe(true);
  });
});
