import { beforeAll, describe, expect, it } from 'vitest';
import type { RatingSummary } from '../shared/catalogue-model.ts';
import type { LightnovelRatingView } from '../shared/lightnovel/ratings.contract.ts';
import { ApiError } from './api-client.ts';
import { fakeApi } from './fake-api.ts';
import {
  createLightnovelRatings,
  lightnovelDraftFrom,
  loadLightnovelRatingsContract,
  validateLightnovelRating,
} from './lightnovel-ratings.ts';

// The contract loads with the store's first call; here it is loaded up front, so calls go out at once.
beforeAll(() => loadLightnovelRatingsContract());

const summary = (avg: number | null, count: number, hist = Array(10).fill(0)): RatingSummary => ({
  ratingAvg: avg,
  ratingCount: count,
  scoreHistogram: hist,
});
const rating = (score: number): LightnovelRatingView => ({
  id: 1,
  lightnovelId: 4,
  score,
  text: '温柔的故事',
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  user: { _id: 'a'.repeat(24), userId: 1, name: 'Reader', avatar: '' },
});

describe('light-novel ratings', () => {
  it('validates a draft before sending', () => {
    expect(validateLightnovelRating({ score: null, text: '' })).toEqual({ score: 'galgame.rating.pickScore' });
    expect(validateLightnovelRating({ score: 0, text: '' })).toEqual({ score: 'galgame.rating.pickScore' });
    expect(validateLightnovelRating({ score: 7.5, text: '' })).toEqual({ score: 'galgame.rating.pickScore' });
    expect(validateLightnovelRating({ score: 7, text: 'x'.repeat(501) })).toEqual({
      text: 'galgame.rating.textTooLong',
    });
    expect(validateLightnovelRating({ score: 10, text: ` ${'x'.repeat(500)} ` })).toEqual({});
  });

  it('starts editing from the saved rating or from an empty form', () => {
    expect(lightnovelDraftFrom(null)).toEqual({ score: null, text: '' });
    expect(lightnovelDraftFrom(rating(8))).toEqual({ score: 8, text: '温柔的故事' });
  });

  it('loads, saves and deletes the viewer rating, updating the summary', async () => {
    const fake = fakeApi();
    const ratings = createLightnovelRatings(fake.client);
    ratings.seed(4, summary(7, 2));
    const loading = ratings.loadMine(4);
    expect(fake.calls[0]).toMatchObject({ method: 'GET', path: '/lightnovel/4/rating' });
    await fake.answer({ rating: null });
    expect(await loading).toEqual({ ok: true });
    expect(ratings.entry(4)).toMatchObject({ mine: null, loaded: true });

    expect(await ratings.save(4, { score: null, text: '' })).toEqual({
      ok: false,
      errors: { score: 'galgame.rating.pickScore' },
    });
    expect(fake.calls).toHaveLength(1);

    const saving = ratings.save(4, { score: 9, text: '  好看  ' });
    expect(ratings.entry(4).pending).toBe(true);
    // A second click while the first is out sends nothing.
    expect(await ratings.save(4, { score: 9, text: '' })).toEqual({ ok: false, message: '' });
    expect(fake.calls[1]).toEqual({ method: 'PUT', path: '/lightnovel/4/rating', body: { score: 9, text: '好看' } });
    const hist = [0, 0, 0, 0, 0, 0, 1, 1, 1, 0];
    await fake.answer({ summary: summary(8, 3, hist), rating: rating(9) });
    expect(await saving).toEqual({ ok: true });
    expect(ratings.entry(4)).toMatchObject({ summary: summary(8, 3, hist), mine: { score: 9 }, pending: false });

    const removing = ratings.remove(4);
    expect(fake.calls[2]).toMatchObject({ method: 'DELETE', path: '/lightnovel/4/rating' });
    await fake.answer({ summary: summary(7, 2), rating: null });
    expect(await removing).toEqual({ ok: true });
    expect(ratings.entry(4)).toMatchObject({ summary: summary(7, 2), mine: null, pending: false });
  });

  it('keeps the summary and says why when the server refuses', async () => {
    const fake = fakeApi();
    const ratings = createLightnovelRatings(fake.client);
    ratings.seed(5, summary(6, 1));
    const saving = ratings.save(5, { score: 3, text: '' });
    await fake.fail(new ApiError({ status: 404, code: 'NOT_FOUND', message: '轻小说 5 不存在' }));
    expect(await saving).toEqual({ ok: false, message: '轻小说 5 不存在' });
    expect(ratings.entry(5)).toMatchObject({ summary: summary(6, 1), pending: false });
  });
});
