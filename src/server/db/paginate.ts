import type { SelectQueryBuilder } from 'kysely';
import type { Pagination } from '../../shared/catalogue.ts';

/** Which page of a list to read: `page` counts from 1, `limit` rows a page (both already validated). */
export interface PageRequest {
  page: number;
  limit: number;
}

/** One page of a list, as every paginated API answer and page carries it. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** Rows to skip before the page. */
export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;

/**
 * The page object of an answer: at least one page, so an empty list is "page 1 of 1". With `maxPages`
 * the pages end there however large the total; `capped` says the total is where counting stopped.
 */
export function pageInfo(
  { page, limit }: PageRequest,
  total: number,
  options: { maxPages?: number; capped?: boolean } = {},
): Pagination {
  const pages = Math.max(1, Math.ceil(total / limit));
  return {
    page,
    limit,
    total,
    totalPages: options.maxPages === undefined ? pages : Math.min(pages, options.maxPages),
    ...(options.capped ? { capped: true } : {}),
  };
}

/** The rows of one page of a query that is already ordered (order by a unique column last). */
export function onPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  return query.limit(request.limit).offset(offsetOf(request));
}

/** A count(*) as it comes back: a number on SQLite, a string (bigint) on PostgreSQL. */
type CountValue = number | string | bigint;

/**
 * One page of `rows` and the count of all of them, read together. `count` selects a single `total`
 * over the same filters, e.g. `base.select((eb) => eb.fn.countAll().as('total'))`.
 */
export async function paginate<DB, TB extends keyof DB, O, CDB, CTB extends keyof CDB>(
  request: PageRequest,
  rows: SelectQueryBuilder<DB, TB, O>,
  count: SelectQueryBuilder<CDB, CTB, { total: CountValue }>,
): Promise<Page<O>> {
  const [items, counted] = await Promise.all([onPage(rows, request).execute(), count.executeTakeFirstOrThrow()]);
  return { items, pagination: pageInfo(request, Number(counted.total)) };
}
