import { recordSearch } from '../../modules/search/search.trending.ts';
import type { Db } from '../database.ts';

/**
 * Searches readers of the demo made, so 'Everyone is searching' has something to show on a fresh
 * install: each keyword searched by that many distinct demo searchers in the seed's hour (trending's
 * day window shows them for a day, like any real search).
 */
export const demoSearches: readonly { keyword: string; searchers: number }[] = [
  { keyword: '雨声侦探事务所', searchers: 9 },
  { keyword: '蝉雨回响', searchers: 8 },
  { keyword: '终末天象仪', searchers: 7 },
  { keyword: '白银舞星', searchers: 6 },
  { keyword: '潮声的记忆', searchers: 5 },
  { keyword: '忘却都市', searchers: 4 },
  { keyword: '闪耀舞台', searchers: 3 },
  { keyword: '雾笛之夜', searchers: 2 },
];

export async function seedDemoSearches(db: Db, now: Date): Promise<number> {
  for (const { keyword, searchers } of demoSearches) {
    for (let n = 1; n <= searchers; n++) await recordSearch(db, { keyword, actor: `demo:${n}`, now });
  }
  return demoSearches.length;
}
