import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The escape character of every LIKE pattern we build. Not a backslash: `'!'` reads the same on SQLite
 * and on PostgreSQL whatever `standard_conforming_strings` says, and needs no escaping in SQL text.
 */
export const LIKE_ESCAPE = '!';

/** Text matched literally by LIKE … ESCAPE '!': `%`, `_` and `!` itself get the escape character. */
export function escapeLike(text: string): string {
  return text.replace(/[%_!]/g, (c) => `${LIKE_ESCAPE}${c}`);
}

/**
 * True where `column` contains `keyword` as typed (`%` and `_` are plain characters), case folded
 * the same way on both sides by the database's own `lower()`, so SQLite and PostgreSQL agree.
 */
export function containsText(column: Expression<string>, keyword: string): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(keyword)}%`;
  return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '!'`;
}
