import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with embedded defaults: port 4321, SQLite in DATA_DIR, local media, demo seed on', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(4321);
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
    expect(config.storage).toEqual({ driver: 'local', dir: path.join(dataDir, 'media') });
    expect(config.seedDemo).toBe(true);
    expect(config.publicOrigin).toBe('http://localhost:4321');
    expect(config.analytics).toBeUndefined();
    expect(config.slowQueryMs).toBe(20);
  });

  it('reads SLOW_QUERY_MS in whole milliseconds (0 turns the slow-query log off)', () => {
    expect(loadConfig({ DATA_DIR: dataDir, SLOW_QUERY_MS: '250' }).slowQueryMs).toBe(250);
    expect(loadConfig({ DATA_DIR: dataDir, SLOW_QUERY_MS: '0' }).slowQueryMs).toBe(0);
  });

  it('generates a missing secret once, keeps it with mode 0600 and reuses it', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ JWT_SECRET: first });
  });

  it('uses a given secret without writing one', () => {
    const secret = 'x'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret }).jwtSecret).toBe(secret);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['JWT_SECRET', 'short'],
    ['SEED_DEMO', 'maybe'],
    ['STORAGE_DRIVER', 'ftp'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_ORIGIN', 'example.com'],
    ['SMTP_URL', 'http://mail'],
    ['WEB_CONCURRENCY', '0'],
    ['WEB_CONCURRENCY', '-2'],
    ['WEB_CONCURRENCY', '1.5'],
    ['WEB_CONCURRENCY', 'many'],
    ['WEB_CONCURRENCY', '100000'],
    ['SLOW_QUERY_MS', 'slow'],
    ['SLOW_QUERY_MS', '2.5'],
    ['SLOW_QUERY_MS', '-1'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir, [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
    expect((error as ConfigError).variable).toBe(name);
  });

  it('requires the S3 credentials when STORAGE_DRIVER is s3', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
  });

  it('requires a site id with an analytics URL', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, ANALYTICS_URL: 'https://stats.example.org' })).toThrow(
      /ANALYTICS_SITE_ID/,
    );
  });

  it('reads PostgreSQL and SQLite URLs', () => {
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u:p@127.0.0.1/h' }).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u:p@127.0.0.1/h',
    });
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
      dialect: 'sqlite',
      file: ':memory:',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '' }).port).toBe(4321);
    expect(loadConfig({ DATA_DIR: dataDir, WEB_CONCURRENCY: '' }).webConcurrency).toBe(availableParallelism());
  });

  it('runs one server process per core unless WEB_CONCURRENCY says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).webConcurrency).toBe(availableParallelism());
    expect(loadConfig({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir, WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
  });

  it('keeps a database in memory to one process', () => {
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:' }).webConcurrency).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:', WEB_CONCURRENCY: '2' })).toThrow(
      /^Invalid configuration: WEB_CONCURRENCY must be 1 with DATABASE_URL=sqlite::memory:/,
    );
  });
});
