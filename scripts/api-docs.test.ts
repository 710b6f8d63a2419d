import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/shared/contracts.ts';
import {
  API_TABLES_END,
  API_TABLES_START,
  README_PATH,
  apiTables,
  displayPath,
  readmeWithApiTables,
} from './api-docs.ts';

describe('the API tables in README.md', () => {
  it('are the ones the contracts generate', async () => {
    const readme = readFileSync(README_PATH, 'utf8');
    const expected = await readmeWithApiTables(readme);
    expect(readme === expected, 'README.md API tables differ from the contracts: run `npm run docs:api`').toBe(true);
  });

  it('list every endpoint once, with its path in the README spelling and whether a login is needed', () => {
    const tables = apiTables();
    expect(tables.startsWith(API_TABLES_START) && tables.endsWith(API_TABLES_END)).toBe(true);
    for (const { endpoint } of allEndpoints()) {
      const row = `| ${endpoint.method} | \`${displayPath(endpoint.path)}\` |`;
      expect(tables.split(row).length - 1, row).toBe(1);
    }
    expect(displayPath('/galgame/download-link/:linkId/report')).toBe('/api/galgame/download-link/{linkId}/report');
    expect(tables).toContain('| PUT | `/api/galgame/{id}/rating` | yes 🔒 |');
    expect(tables).toContain('| GET | `/api/galgame/{id}/downloads` | optional |');
  });

  it('refuses a README without the markers', async () => {
    await expect(readmeWithApiTables('# Hikari\n')).rejects.toThrow(/markers/);
  });
});
