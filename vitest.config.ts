import { defineConfig } from 'vitest/config';

const define = { __BUILD_ID__: JSON.stringify('test-build') };

// Suites that touch the database run on SQLite by default and on PostgreSQL when TEST_DATABASE_URL is
// set (CI runs them both ways with `npm run test:db`).
const dbSuites = ['tests/api/**/*.test.ts', 'src/server/**/*.test.ts'];
// Islands rendered on the server read every catalogue, which the server loads at start.
const setupFiles = ['src/shared/i18n/catalogues.ts'];

export default defineConfig({
  define,
  test: {
    // The JSON report feeds the one-line summary printed at the end of a CI run (scripts/test-summary.ts).
    reporters: ['default', 'json'],
    outputFile: { json: process.env.VITEST_JSON_REPORT ?? 'reports/vitest.json' },
    projects: [
      {
        define,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: dbSuites,
          environment: 'node',
          setupFiles,
        },
      },
      {
        define,
        test: {
          name: 'db',
          include: dbSuites,
          environment: 'node',
          setupFiles,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
