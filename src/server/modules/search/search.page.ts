import type { SearchQuery } from '../../../shared/search/search.contract.ts';
import type { SearchHit, SearchResultPage } from '../../../shared/search/search-model.ts';
import type { AppContext } from '../../context.ts';
import { incomingIp } from '../../http/client-ip.ts';
import { pageTags, type PageCachePolicy } from '../../http/page-cache-policy.ts';
import { lightnovelTags } from '../lightnovel/lightnovel.targets.ts';
import { searchCatalogue } from './search.service.ts';
import { HttpError } from '../../platform/errors.ts';
import { admitSearchCall } from './search.limits.ts';
import { countSearch, searchActor, searchMayCount } from './search.trending.ts';

/**
 * Counts the search a reader made by opening /search (its first page, when it found something) for
 * trending, and returns what counts it again for each answer the page cache gives a visitor. The
 * searcher is the address (a page cannot trust who the user-info cookie names); a request another
 * site made does not count (`searchMayCount`).
 */
export async function countSearchPage(
  locals: Pick<App.Locals, 'app' | 'clientIp'>,
  result: SearchResultPage,
  fetchSite: string | null,
): Promise<PageCachePolicy['onServe']> {
  if (result.pagination.page !== 1 || result.pagination.total === 0) return undefined;
  const { app } = locals;
  if (searchMayCount(fetchSite))
    await countSearch(app, result.keyword, searchActor(null, locals.clientIp ?? 'unknown'));
  return (req) => {
    const site = req.headers['sec-fetch-site'];
    if (searchMayCount(Array.isArray(site) ? site[0] : site))
      void countSearch(app, result.keyword, searchActor(null, incomingIp(req, app.config.trustProxy)));
  };
}

/**
 * Counts a search made by opening /search against the address's budget (the API's, search.limits.ts).
 * Past it: the seconds to wait and what to tell the reader, for a 429 page that is never cached.
 */
export async function searchPageLimit(
  locals: Pick<App.Locals, 'app' | 'clientIp'>,
): Promise<{ retryAfter: number; message: string } | null> {
  try {
    await admitSearchCall(locals.app.db, 'search', locals.clientIp ?? 'unknown');
    return null;
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 429) throw error;
    return { retryAfter: (error.details as { retryAfter: number }).retryAfter, message: error.message };
  }
}

/** The page-cache tags of a result: every list of games and of light novels, and each item shown. */
export const searchTags = (result: SearchResultPage): string[] => [
  pageTags.galgames,
  lightnovelTags.all,
  ...result.items.map((hit: SearchHit) =>
    hit.type === 'galgame'
      ? pageTags.galgame(hit.galgame.id)
      : hit.type === 'novel'
        ? lightnovelTags.series(hit.lightnovel.id)
        : pageTags[hit.entity.kind](hit.entity.id),
  ),
];

/**
 * A search through the process's shared reads: the same search asked again within seconds (a popular
 * keyword, the API and the page alike) is answered once, and a change to what it shows drops it.
 */
export const sharedSearch = (ctx: Pick<AppContext, 'db' | 'reads'>, query: SearchQuery): Promise<SearchResultPage> =>
  ctx.reads.get(`search:${JSON.stringify(query)}`, () => searchCatalogue(ctx.db, query), searchTags);
