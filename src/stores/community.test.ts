import { beforeAll, describe, expect, it } from 'vitest';
import { MODERATOR_GROUPS } from '../shared/community/community.ts';
import { ApiError } from './api-client.ts';
import { loadCatalogueContract } from './catalogue-client.ts';
import {
  MODERATORS,
  asksModeratedSections,
  contentRights,
  createContentFavorites,
  createContentModeration,
  createFollows,
  createModeratedSections,
  editHref,
  loadCommunityContract,
} from './community.ts';
import { fakeApi } from './fake-api.ts';

// The contracts load with a store's first call; here they are loaded up front, so calls go out at once.
beforeAll(() => Promise.all([loadCommunityContract(), loadCatalogueContract()]));

const apiError = (status: number, message: string) =>
  new ApiError({ status, code: status === 404 ? 'NOT_FOUND' : 'FORBIDDEN', message });

describe('who may do what with a post or article', () => {
  it('lets the author edit and the moderators moderate, and visitors nothing', () => {
    expect(contentRights(null, 7)).toEqual({ canEdit: false, canModerate: false });
    expect(contentRights({ userId: 7, hikariUserGroup: 'user' }, 7)).toEqual({ canEdit: true, canModerate: false });
    expect(contentRights({ userId: 8, hikariUserGroup: 'user' }, 7)).toEqual({ canEdit: false, canModerate: false });
    expect(contentRights({ userId: 8, hikariUserGroup: 'creator' }, 7)).toEqual({ canEdit: false, canModerate: false });
    for (const group of ['editor', 'admin', 'superAdmin'] as const) {
      expect(contentRights({ userId: 8, hikariUserGroup: group }, 7)).toEqual({ canEdit: false, canModerate: true });
    }
    // An item whose author is gone (userId 0) is nobody's to edit.
    expect(contentRights({ userId: 0, hikariUserGroup: 'user' }, 0).canEdit).toBe(false);
  });

  it('gives a section moderator the moderation buttons in their sections only', () => {
    const moderator = { userId: 8, hikariUserGroup: 'creator' as const };
    const inSection = (sectionId: number | null, moderated: number[] | null) =>
      contentRights(moderator, 7, { sectionId, moderated });
    expect(inSection(3, [3, 5])).toEqual({ canEdit: false, canModerate: true });
    expect(inSection(4, [3, 5])).toEqual({ canEdit: false, canModerate: false });
    // An item outside any section, or before the member's sections are known: no buttons.
    expect(inSection(null, [3])).toEqual({ canEdit: false, canModerate: false });
    expect(inSection(3, null)).toEqual({ canEdit: false, canModerate: false });
    // The author moderating their own section edits as well.
    expect(contentRights({ userId: 7, hikariUserGroup: 'user' }, 7, { sectionId: 3, moderated: [3] })).toEqual({
      canEdit: true,
      canModerate: true,
    });
    expect(contentRights(null, 7, { sectionId: 3, moderated: [3] }).canModerate).toBe(false);
    // Only a signed-in member below the staff groups, on an item in a section, needs to ask.
    expect(asksModeratedSections(moderator, 3)).toBe(true);
    expect(asksModeratedSections(moderator, null)).toBe(false);
    expect(asksModeratedSections(null, 3)).toBe(false);
    expect(asksModeratedSections({ hikariUserGroup: 'editor' }, 3)).toBe(false);
  });

  it('asks for the sections a member moderates once, and knows none after a failure', async () => {
    const fake = fakeApi();
    const sections = createModeratedSections(fake.client);
    expect(sections.of(8)).toBeNull();
    const loading = sections.load(8);
    void sections.load(8);
    await fake.sent(1);
    expect(fake.calls).toEqual([{ method: 'GET', path: '/user/moderated-sections' }]);
    await fake.answer({ sectionIds: [3, 5] });
    await loading;
    expect(sections.of(8)).toEqual([3, 5]);
    await sections.load(8);
    expect(fake.calls).toHaveLength(1);
    // Another member (a new login in the same tab) is asked about afresh.
    expect(sections.of(9)).toBeNull();
    const other = sections.load(9);
    await fake.sent(2);
    await fake.fail(apiError(404, '不存在'));
    await other;
    expect(sections.of(9)).toBeNull();
    // Each member's answer is their own: the first member's sections are still theirs only.
    expect(sections.of(8)).toEqual([3, 5]);
  });

  it('knows the same moderators as the community model', () => {
    expect([...MODERATORS].sort()).toEqual([...MODERATOR_GROUPS].sort());
  });

  it('edits in the creator centre', () => {
    expect(editHref('post', 3)).toBe('/create/content/post?id=3');
    expect(editHref('article', 12)).toBe('/create/content/article?id=12');
  });
});

describe('following sections and topics', () => {
  it('asks the section for the state, then toggles optimistically and settles on the server count', async () => {
    const fake = fakeApi();
    const follows = createFollows(fake.client);
    follows.seed('section', 2, 10);
    const checking = follows.check('section', 2);
    await fake.answer({ id: 2, followerCount: 11, isFollowing: false });
    expect(await checking).toEqual({ ok: true });
    expect(fake.calls[0]).toEqual({ method: 'GET', path: '/community/sections/2' });
    expect(follows.entry('section', 2)).toEqual({ following: false, count: 11, pending: false });

    const toggling = follows.toggle('section', 2);
    expect(follows.entry('section', 2)).toEqual({ following: true, count: 12, pending: true });
    await fake.sent(2);
    expect(fake.calls[1]).toEqual({
      method: 'POST',
      path: '/community/follow',
      body: { targetType: 'section', targetId: 2 },
    });
    await fake.answer({ isFollowing: true, followerCount: 13 });
    expect(await toggling).toEqual({ ok: true });
    expect(follows.entry('section', 2)).toEqual({ following: true, count: 13, pending: false });

    const unfollowing = follows.toggle('section', 2);
    expect(follows.entry('section', 2)).toMatchObject({ following: false, count: 12, pending: true });
    await fake.sent(3);
    expect(fake.calls[2]).toEqual({ method: 'DELETE', path: '/community/follow/section/2' });
    await fake.answer({ isFollowing: false, followerCount: 12 });
    await unfollowing;
    expect(follows.entry('section', 2)).toEqual({ following: false, count: 12, pending: false });
  });

  it('asks a topic through its own read, and keeps sections and topics of one id apart', async () => {
    const fake = fakeApi();
    const follows = createFollows(fake.client);
    follows.seed('topic', 2, 1);
    follows.seed('section', 2, 5);
    const checking = follows.check('topic', 2);
    await fake.answer({ id: 2, followerCount: 1, isFollowing: true });
    await checking;
    expect(fake.calls[0]).toEqual({ method: 'GET', path: '/community/topics/2' });
    expect(follows.entry('topic', 2).following).toBe(true);
    expect(follows.entry('section', 2)).toEqual({ following: null, count: 5, pending: false });
  });

  it('sends one request for a double click, and rolls back when the server refuses', async () => {
    const fake = fakeApi();
    const follows = createFollows(fake.client);
    follows.seed('topic', 4, 3);
    const first = follows.toggle('topic', 4);
    expect(await follows.toggle('topic', 4)).toEqual({ ok: false, busy: true });
    await fake.sent(1);
    expect(fake.calls).toHaveLength(1);
    await fake.fail(apiError(404, '话题不存在'));
    expect(await first).toEqual({ ok: false, message: '话题不存在' });
    expect(follows.entry('topic', 4)).toEqual({ following: null, count: 3, pending: false });
  });

  it('ignores a check a toggle overtook, and a page rendered during a toggle', async () => {
    const fake = fakeApi();
    const follows = createFollows(fake.client);
    follows.seed('section', 1, 0);
    const checking = follows.check('section', 1);
    const toggling = follows.toggle('section', 1);
    follows.seed('section', 1, 40);
    await fake.answer({ id: 1, followerCount: 0, isFollowing: false });
    await checking;
    expect(follows.entry('section', 1)).toEqual({ following: true, count: 1, pending: true });
    await fake.answer({ isFollowing: true, followerCount: 1 });
    await toggling;
    expect(follows.entry('section', 1)).toEqual({ following: true, count: 1, pending: false });
  });

  it('never counts below zero', async () => {
    const fake = fakeApi();
    const follows = createFollows(fake.client);
    follows.seed('topic', 9, 0);
    const checking = follows.check('topic', 9);
    await fake.answer({ id: 9, followerCount: 0, isFollowing: true });
    await checking;
    void follows.toggle('topic', 9);
    expect(follows.entry('topic', 9).count).toBe(0);
  });
});

describe('favourite posts and articles', () => {
  it('uses the favourites API with the item type', async () => {
    const fake = fakeApi();
    const favorites = createContentFavorites(fake.client);
    favorites.seed('article', 5, 2);
    const checking = favorites.check('article', 5);
    await fake.answer({ isFavorited: false, favoriteCount: 2 });
    await checking;
    expect(fake.calls[0]).toEqual({
      method: 'GET',
      path: '/user/favorites/check',
      query: { itemType: 'article', itemId: 5 },
    });

    const adding = favorites.toggle('article', 5);
    expect(favorites.entry('article', 5)).toEqual({ favorited: true, count: 3, pending: true });
    await fake.sent(2);
    expect(fake.calls[1]).toEqual({
      method: 'POST',
      path: '/user/favorites',
      body: { itemType: 'article', itemId: 5 },
    });
    await fake.answer({ isFavorited: true, favoriteCount: 3 });
    await adding;

    const removing = favorites.toggle('article', 5);
    await fake.sent(3);
    expect(fake.calls[2]).toEqual({ method: 'DELETE', path: '/user/favorites/article/5' });
    await fake.answer({ isFavorited: false, favoriteCount: 2 });
    await removing;
    expect(favorites.entry('article', 5)).toEqual({ favorited: false, count: 2, pending: false });
    // A post with the same id is another item.
    expect(favorites.entry('post', 5)).toEqual({ favorited: null, count: 0, pending: false });
  });

  it('rolls back a refused favourite and reports the message', async () => {
    const fake = fakeApi();
    const favorites = createContentFavorites(fake.client);
    favorites.seed('post', 1, 4);
    const toggling = favorites.toggle('post', 1);
    await fake.fail(apiError(404, '收藏的内容不存在'));
    expect(await toggling).toEqual({ ok: false, message: '收藏的内容不存在' });
    expect(favorites.entry('post', 1)).toEqual({ favorited: null, count: 4, pending: false });
  });
});

describe('pinning, featuring and deleting', () => {
  it('pins and features through the moderation call of the type, following the answer', async () => {
    const fake = fakeApi();
    const moderation = createContentModeration(fake.client);
    moderation.seed('post', 3, { pinned: false, featured: false });
    const pinning = moderation.set('post', 3, { pinned: true });
    expect(moderation.entry('post', 3).pending).toBe(true);
    expect(await moderation.set('post', 3, { featured: true })).toEqual({ ok: false, busy: true });
    await fake.answer({ id: 3, pinned: true, featured: false });
    expect(await pinning).toEqual({ ok: true });
    expect(fake.calls).toEqual([{ method: 'PUT', path: '/community/posts/3/moderation', body: { pinned: true } }]);
    expect(moderation.entry('post', 3)).toEqual({ pinned: true, featured: false, deleted: false, pending: false });

    const featuring = moderation.set('article', 8, { featured: true });
    await fake.answer({ id: 8, pinned: false, featured: true });
    await featuring;
    expect(fake.calls[1]).toEqual({
      method: 'PUT',
      path: '/community/articles/8/moderation',
      body: { featured: true },
    });
    expect(moderation.entry('article', 8).featured).toBe(true);
  });

  it('keeps the marks when the server refuses', async () => {
    const fake = fakeApi();
    const moderation = createContentModeration(fake.client);
    moderation.seed('article', 2, { pinned: true, featured: false });
    const unpinning = moderation.set('article', 2, { pinned: false });
    await fake.fail(apiError(403, '只有版主可以置顶'));
    expect(await unpinning).toEqual({ ok: false, message: '只有版主可以置顶' });
    expect(moderation.entry('article', 2)).toEqual({ pinned: true, featured: false, deleted: false, pending: false });
  });

  it('deletes a post or an article once', async () => {
    const fake = fakeApi();
    const moderation = createContentModeration(fake.client);
    const deleting = moderation.remove('post', 6);
    expect(await moderation.remove('post', 6)).toEqual({ ok: false, busy: true });
    await fake.answer({ deleted: true });
    expect(await deleting).toEqual({ ok: true });
    expect(moderation.entry('post', 6).deleted).toBe(true);

    const refused = moderation.remove('article', 7);
    await fake.fail(apiError(403, '不能删除别人的文章'));
    expect(await refused).toEqual({ ok: false, message: '不能删除别人的文章' });
    expect(moderation.entry('article', 7)).toMatchObject({ deleted: false, pending: false });
    expect(fake.calls).toEqual([
      { method: 'DELETE', path: '/community/posts/6' },
      { method: 'DELETE', path: '/community/articles/7' },
    ]);
  });
});
