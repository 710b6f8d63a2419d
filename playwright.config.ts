import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = Number(process.env.E2E_PORT ?? 4399);
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
// Workers load this file again: they inherit the runner's directory (tests that write to the database
// directly need its path) instead of making another.
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'hikari-e2e-')));

/** Browser tests against the built server (run `npm run build` first; `npm run test:e2e` does). */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_REPORT ?? 'reports/e2e.json' }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node --disable-warning=ExperimentalWarning src/server/main.ts',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Two server processes on any machine: the browser tests go through the cluster (bus, chat,
      // round-robin) without starting one process per core of a big CI machine.
      WEB_CONCURRENCY: process.env.E2E_WEB_CONCURRENCY ?? '2',
      SEED_DEMO: 'true',
      NAV_AD_URL: 'https://example.com/ai-girlfriend',
      // A real SMTP receiver is started on this port by the accounts tests.
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Hikari <no-reply@hikari.test>',
    },
  },
});
