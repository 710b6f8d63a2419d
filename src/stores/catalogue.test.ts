import { beforeAll, describe, expect, it } from 'vitest';
import type { RatingSummary, RatingView } from '../shared/catalogue-model.ts';
import { ApiError } from './api-client.ts';
import { loadCatalogueContract } from './catalogue-client.ts';
import { fakeApi } from './fake-api.ts';
import { createFavorites, createRatings, draftFrom, ratingSummaryFor, scoreLine, validateRating } from './catalogue.ts';

// The contract loads with a store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadCatalogueContract());

const apiError = (status: number, message: string) =>
  new ApiError({ status, code: status === 404 ? 'NOT_FOUND' : 'INTERNAL_ERROR', message });

describe('favourites', () => {
  it('checks the state, then toggles optimistically and settles on the server count', async () => {
    const fake = fakeApi();
    const favorites = createFavorites(fake.client);
    favorites.seed(3, 10);
    const checking = favorites.check(3);
    expect(fake.calls[0]).toEqual({
      method: 'GET',
      path: '/user/favorites/check',
      query: { itemType: 'galgame', itemId: 3 },
    });
    await fake.answer({ isFavorited: false, favoriteCount: 10 });
    await checking;
    expect(favorites.entry(3)).toEqual({ favorited: false, count: 10, pending: false });

    const toggling = favorites.toggle(3);
    // Optimistic: shown at once, and disabled while the request is out.
    expect(favorites.entry(3)).toEqual({ favorited: true, count: 11, pending: true });
    expect(fake.calls[1]).toEqual({
      method: 'POST',
      path: '/user/favorites',
      body: { itemType: 'galgame', itemId: 3 },
    });
    await fake.answer({ isFavorited: true, favoriteCount: 12 });
    expect(await toggling).toEqual({ ok: true });
    expect(favorites.entry(3)).toEqual({ favorited: true, count: 12, pending: false });

    const removing = favorites.toggle(3);
    expect(favorites.entry(3)).toMatchObject({ favorited: false, count: 11, pending: true });
    expect(fake.calls[2]).toMatchObject({ method: 'DELETE', path: '/user/favorites/galgame/3' });
    await fake.answer({ isFavorited: false, favoriteCount: 11 });
    await removing;
    expect(favorites.entry(3)).toEqual({ favorited: false, count: 11, pending: false });
  });

  it('sends one request for a double click', async () => {
    const fake = fakeApi();
    const favorites = createFavorites(fake.client);
    favorites.seed(5, 0);
    const first = favorites.toggle(5);
    const second = await favorites.toggle(5);
    expect(second).toEqual({ ok: false, busy: true });
    expect(fake.calls).toHaveLength(1);
    await fake.answer({ isFavorited: true, favoriteCount: 1 });
    await first;
    expect(favorites.entry(5).favorited).toBe(true);
  });

  it('rolls back and reports the message when the server refuses', async () => {
    const fake = fakeApi();
    const favorites = createFavorites(fake.client);
    favorites.seed(8, 4);
    const toggling = favorites.toggle(8);
    expect(favorites.entry(8).count).toBe(5);
    await fake.fail(apiError(404, '收藏的内容不存在'));
    expect(await toggling).toEqual({ ok: false, message: '收藏的内容不存在' });
    expect(favorites.entry(8)).toEqual({ favorited: null, count: 4, pending: false });
  });

  it('ignores a check that a toggle overtook, and takes the count of a page rendered later', async () => {
    const fake = fakeApi();
    const favorites = createFavorites(fake.client);
    favorites.seed(2, 1);
    const checking = favorites.check(2);
    const toggling = favorites.toggle(2);
    await fake.answer({ isFavorited: false, favoriteCount: 1 });
    await checking;
    expect(favorites.entry(2)).toMatchObject({ favorited: true, pending: true });
    // A page rendered while the toggle is out does not undo it.
    favorites.seed(2, 1);
    expect(favorites.entry(2)).toMatchObject({ count: 2, pending: true });
    await fake.answer({ isFavorited: true, favoriteCount: 2 });
    await toggling;
    // Coming back later: the server's newer count (others favourited meanwhile) wins.
    favorites.seed(2, 5);
    expect(favorites.entry(2)).toEqual({ favorited: true, count: 5, pending: false });
  });
});

const summary = (avg: number | null, count: number, hist: number[] = Array(10).fill(0)): RatingSummary => ({
  ratingAvg: avg,
  ratingCount: count,
  scoreHistogram: hist,
});

const rating = (score: number): RatingView => ({
  id: 1,
  galgameId: 4,
  score,
  status: 'completed',
  text: '很好',
  spoiler: false,
  likeCount: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  user: { _id: 'u1', userId: 7, name: '小光', avatar: '' },
});

describe('ratings', () => {
  it('validates a draft before sending', () => {
    expect(validateRating({ score: null, status: '', text: '', spoiler: false })).toEqual({
      score: 'galgame.rating.pickScore',
      status: 'galgame.rating.pickStatus',
    });
    expect(validateRating({ score: 11, status: 'plan', text: '', spoiler: false })).toEqual({
      score: 'galgame.rating.pickScore',
    });
    expect(validateRating({ score: 7, status: 'plan', text: 'x'.repeat(2001), spoiler: false })).toEqual({
      text: 'galgame.rating.textTooLong',
    });
    expect(validateRating({ score: 10, status: 'dropped', text: '', spoiler: true })).toEqual({});
  });

  it('starts editing from the saved rating or from an empty form', () => {
    expect(draftFrom(null)).toEqual({ score: null, status: '', text: '', spoiler: false });
    expect(draftFrom(rating(8))).toEqual({ score: 8, status: 'completed', text: '很好', spoiler: false });
  });

  it('loads, saves and deletes the viewer rating, updating the summary', async () => {
    const fake = fakeApi();
    const ratings = createRatings(fake.client);
    ratings.seed(4, summary(7, 2));
    const loading = ratings.loadMine(4);
    expect(fake.calls[0]).toMatchObject({ method: 'GET', path: '/galgame/4/rating' });
    await fake.answer({ rating: null });
    await loading;
    expect(ratings.entry(4)).toMatchObject({ mine: null, loaded: true });

    const invalid = await ratings.save(4, { score: null, status: 'plan', text: '', spoiler: false });
    expect(invalid).toEqual({ ok: false, errors: { score: 'galgame.rating.pickScore' } });
    expect(fake.calls).toHaveLength(1);

    const saving = ratings.save(4, { score: 9, status: 'completed', text: '  很好  ', spoiler: false });
    expect(ratings.entry(4).pending).toBe(true);
    expect(fake.calls[1]).toEqual({
      method: 'PUT',
      path: '/galgame/4/rating',
      body: { score: 9, status: 'completed', text: '很好', spoiler: false },
    });
    const hist = [0, 0, 0, 0, 0, 0, 1, 1, 1, 0];
    await fake.answer({ summary: summary(8, 3, hist), rating: rating(9) });
    expect(await saving).toEqual({ ok: true });
    expect(ratings.entry(4)).toMatchObject({ summary: summary(8, 3, hist), mine: { score: 9 }, pending: false });

    const removing = ratings.remove(4);
    expect(fake.calls[2]).toMatchObject({ method: 'DELETE', path: '/galgame/4/rating' });
    await fake.answer({ summary: summary(7, 2), rating: null });
    await removing;
    expect(ratings.entry(4)).toMatchObject({ summary: summary(7, 2), mine: null, pending: false });
    // The page rendered again later brings the server's current summary.
    ratings.seed(4, summary(6.5, 4));
    expect(ratings.entry(4).summary).toEqual(summary(6.5, 4));
  });

  it('gives the hero score and the rating card one summary, updated by a save and a delete', async () => {
    const fake = fakeApi();
    const ratings = createRatings(fake.client);
    const rendered = summary(7, 1, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    // Before any island has seeded the store, both read what the server rendered.
    expect(ratingSummaryFor(ratings.$ratings.get(), 4, rendered)).toBe(rendered);
    // Both islands seed the same server values as they hydrate.
    ratings.seed(4, rendered);
    ratings.seed(4, rendered);
    expect(scoreLine(ratingSummaryFor(ratings.$ratings.get(), 4, rendered))).toEqual({ average: 7, count: 1 });

    const seen: (number | null)[] = [];
    const unsubscribe = ratings.$ratings.listen((entries) =>
      seen.push(ratingSummaryFor(entries, 4, rendered).ratingAvg),
    );
    const saving = ratings.save(4, { score: 9, status: 'completed', text: '', spoiler: false });
    await fake.answer({ summary: summary(8, 2, [0, 0, 0, 0, 0, 0, 1, 0, 1, 0]), rating: rating(9) });
    await saving;
    // The hero, subscribed to the same store, sees the new average without a reload.
    expect(scoreLine(ratingSummaryFor(ratings.$ratings.get(), 4, rendered))).toEqual({ average: 8, count: 2 });
    expect(seen.at(-1)).toBe(8);

    const removing = ratings.remove(4);
    await fake.answer({ summary: summary(7, 1, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]), rating: null });
    await removing;
    expect(scoreLine(ratingSummaryFor(ratings.$ratings.get(), 4, rendered))).toEqual({ average: 7, count: 1 });
    unsubscribe();
    // Other games keep their own summaries.
    expect(ratingSummaryFor(ratings.$ratings.get(), 5, summary(6, 3))).toEqual(summary(6, 3));
  });

  it('reads no score for a game nobody rated, even when the last rating is deleted', async () => {
    expect(scoreLine({ ratingAvg: null, ratingCount: 0, scoreHistogram: Array(10).fill(0) })).toBeNull();
    const fake = fakeApi();
    const ratings = createRatings(fake.client);
    ratings.seed(4, summary(9, 1));
    const removing = ratings.remove(4);
    await fake.answer({
      summary: { ratingAvg: null, ratingCount: 0, scoreHistogram: Array(10).fill(0) },
      rating: null,
    });
    await removing;
    expect(scoreLine(ratingSummaryFor(ratings.$ratings.get(), 4, summary(9, 1)))).toBeNull();
  });

  it('keeps the form state when saving fails', async () => {
    const fake = fakeApi();
    const ratings = createRatings(fake.client);
    ratings.seed(4, summary(7, 2));
    const saving = ratings.save(4, { score: 6, status: 'playing', text: '', spoiler: false });
    await fake.fail(apiError(500, '服务器开小差了'));
    expect(await saving).toEqual({ ok: false, message: '服务器开小差了' });
    expect(ratings.entry(4)).toMatchObject({ summary: summary(7, 2), mine: null, pending: false });
  });
});
