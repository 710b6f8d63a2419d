import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { containsText, escapeLike } from './like.ts';

const NOW = '2026-11-22T08:00:00.000Z';
const names = [
  '100% Orange',
  '100 Percent Orange',
  'snake_case',
  'snakeXcase',
  'Wow! Great',
  'Wow Great',
  'a\\b',
  'CAPS Lock',
];

describe('LIKE with escaped keywords', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db
      .insertInto('tag')
      .values(names.map((name, i) => ({ id: i + 1, name, created_at: NOW })))
      .execute();
  });
  afterAll(async () => t.destroy());

  const search = async (keyword: string) =>
    (
      await t.db
        .selectFrom('tag')
        .select('name')
        .where((eb) => containsText(eb.ref('name'), keyword))
        .orderBy('id')
        .execute()
    ).map((r) => r.name);

  it('escapes %, _ and the escape character, nothing else', () => {
    expect(escapeLike('100%_a!b\\c')).toBe('100!%!_a!!b\\c');
    expect(escapeLike('夏空')).toBe('夏空');
  });

  it('matches % and _ literally, not as wildcards', async () => {
    expect(await search('0%')).toEqual(['100% Orange']);
    expect(await search('%')).toEqual(['100% Orange']);
    expect(await search('e_c')).toEqual(['snake_case']);
    expect(await search('_')).toEqual(['snake_case']);
  });

  it('matches the escape character and a backslash literally', async () => {
    expect(await search('w!')).toEqual(['Wow! Great']);
    expect(await search('!')).toEqual(['Wow! Great']);
    expect(await search('a\\b')).toEqual(['a\\b']);
  });

  it('folds ASCII case on both sides and finds plain substrings', async () => {
    expect(await search('caps')).toEqual(['CAPS Lock']);
    expect(await search('ORANGE')).toEqual(['100% Orange', '100 Percent Orange']);
    expect(await search('nothing')).toEqual([]);
  });
});
