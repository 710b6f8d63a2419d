// The search index and the searches behind 'Everyone is searching' (decision 024).

/**
 * One name of a searchable item (a game's title, Chinese title or alias; a producer's, person's or
 * character's name). `id` orders the names as ranked: kind, key length (shorter = more of it
 * covered), popularity bucket, item, name number — see search.index.ts `nameId`. On SQLite its tokens
 * are in the FTS5 table `search_fts` (rowid = id); on PostgreSQL in the `tokens` tsvector column.
 */
export interface SearchNameTable {
  id: number;
  kind: number;
  item_id: number;
  /** 0 main title or name, 1 Chinese title or name, 2 alias. */
  field: number;
  name: string;
  /** Normalised, separators dropped: exact and prefix matches. */
  name_key: string;
  /** The key's first character (prefixes of one character read this index, in id order). */
  head: string;
}

/** One searcher's search of a keyword in one hour: counted once, however often it is repeated. */
export interface SearchQueryTable {
  keyword_key: string;
  /** `user:{id}` or `ip:{address}`. */
  actor: string;
  /** Hours since the epoch. */
  hour: number;
}

/** How many distinct searchers searched a keyword in an hour. */
export interface SearchTrendTable {
  keyword_key: string;
  hour: number;
  /** The keyword as last typed. */
  keyword: string;
  searchers: number;
}

/** Keywords operators keep out of trending and suggestions. */
export interface SearchBlockTable {
  keyword_key: string;
  keyword: string;
  created_at: string;
}

export interface SearchStateTable {
  key: string;
  value: string;
}

declare module '../../db/database.ts' {
  interface Database {
    search_name: SearchNameTable;
    search_query: SearchQueryTable;
    search_trend: SearchTrendTable;
    search_block: SearchBlockTable;
    search_state: SearchStateTable;
  }
}
