// npm run docs:api — rewrites the API tables in README.md from the contracts (see api-docs.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { README_PATH, readmeWithApiTables } from './api-docs.ts';

const current = readFileSync(README_PATH, 'utf8');
const next = await readmeWithApiTables(current);
if (next === current) {
  console.log('README.md: the API tables are up to date');
} else {
  writeFileSync(README_PATH, next);
  console.log('README.md: API tables written from the contracts');
}
