import type { Context } from 'hono';
import { searchContract } from '../../../shared/search/search.contract.ts';
import type { TrendingItem, TrendingWindow } from '../../../shared/search/search-model.ts';
import type { AppContext } from '../../context.ts';
import { clientIp } from '../../http/client-ip.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { admitSearchCall } from './search.limits.ts';
import { sharedSearch } from './search.page.ts';
import { suggestNames } from './search.service.ts';
import { countSearch, searchActor, searchMayCount, suggestSearches, trendingKeywords } from './search.trending.ts';

/** How long a process reuses a trending list before reading it again. */
const TRENDING_TTL_MS = 60_000;

/** Spec §7 Search (v2) (decision 024). */
export function searchRoutes(ctx: AppContext) {
  const trending = new Map<string, { at: number; items: Promise<TrendingItem[]> }>();
  const trendingOf = (limit: number, window: TrendingWindow) => {
    const key = `${limit}:${window}`;
    const known = trending.get(key);
    if (known && Date.now() - known.at < TRENDING_TTL_MS) return known.items;
    const items = trendingKeywords(ctx.db, { limit, window });
    items.catch(() => trending.delete(key));
    trending.set(key, { at: Date.now(), items });
    return items;
  };
  const ipOf = (c: Context) => clientIp(c, ctx.config.trustProxy);
  return contractRoutes(ctx, searchContract, {
    search: async (c, { query, user }) => {
      await admitSearchCall(ctx.db, 'search', ipOf(c));
      const result = await sharedSearch(ctx, query);
      // A search that finds something counts towards trending once per searcher and hour.
      if (query.page === 1 && result.pagination.total > 0 && searchMayCount(c.req.header('sec-fetch-site'))) {
        await countSearch(ctx, result.keyword, searchActor(user?.id, ipOf(c)));
      }
      return { data: result };
    },
    trending: async (c, { query }) => {
      await admitSearchCall(ctx.db, 'trending', ipOf(c));
      return { data: await trendingOf(query.limit, query.window) };
    },
    suggest: async (c, { query }) => {
      await admitSearchCall(ctx.db, 'suggest', ipOf(c));
      const [names, searches] = await Promise.all([
        suggestNames(ctx.db, query.prefix, query.limit),
        suggestSearches(ctx.db, query.prefix, query.limit),
      ]);
      const seen = new Set<string>();
      const data = [...names, ...searches].filter((s) => {
        const key = s.keyword.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      return { data: data.slice(0, query.limit) };
    },
  });
}
