import type { SearchResultPage } from '../../../shared/search/search-model.ts';
import { incomingIp } from '../../http/client-ip.ts';
import type { PageCachePolicy } from '../../http/page-cache-policy.ts';
import { countSearch, searchActor } from './search.trending.ts';

/**
 * Counts the search a reader made by opening /search (its first page, when it found something) for
 * trending, and returns what counts it again for each answer the page cache gives a visitor.
 */
export async function countSearchPage(
  locals: Pick<App.Locals, 'app' | 'clientIp'>,
  result: SearchResultPage,
  userId: string | null,
): Promise<PageCachePolicy['onServe']> {
  if (result.pagination.page !== 1 || result.pagination.total === 0) return undefined;
  const { app } = locals;
  await countSearch(app, result.keyword, searchActor(userId, locals.clientIp ?? 'unknown'));
  return (req) => void countSearch(app, result.keyword, searchActor(null, incomingIp(req, app.config.trustProxy)));
}
