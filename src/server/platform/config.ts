import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** Raised when an environment variable holds a value the server cannot use. The message is one line. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/**
 * Raised when the server cannot start because of something outside the code (a damaged database file,
 * a folder it may not write): one line that names the path and the variable that chose it.
 */
export class StartupError extends Error {
  readonly variable: string;
  readonly path: string;
  constructor(variable: string, file: string, problem: string) {
    super(`Cannot start: ${problem}`);
    this.name = 'StartupError';
    this.variable = variable;
    this.path = file;
  }
}

const errorCode = (error: unknown) =>
  error && typeof error === 'object' && 'code' in error ? String(error.code) : 'unknown error';

/** Creates a folder only this user can enter (0700), or checks that the existing one can be used. */
export function ensurePrivateDir(dir: string, variable = 'DATA_DIR'): void {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) {
    throw new ConfigError(
      variable,
      `points at a file, not a folder: ${dir} (set ${variable} to a folder; it is created when missing)`,
    );
  }
  if (!info) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ConfigError(
        variable,
        `folder ${dir} cannot be created (${errorCode(error)}); check the path or its parent's permissions`,
      );
    }
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ConfigError(
      variable,
      `folder ${dir} is not writable by this user (${errorCode(error)}); give it write access or set ${variable} to another folder`,
    );
  }
}

const boolFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((v) => v.replace(/\/+$/, ''));

/** More server processes than this is a typo (each holds a whole copy of the app), not a setting. */
export const MAX_WEB_CONCURRENCY = 256;

const schema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' })
    .default(4321),
  HOST: z.string().min(1, { error: 'must not be empty' }).default('127.0.0.1'),
  DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, {
      error: 'must start with sqlite: (a file path or :memory:) or postgres://',
    })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  PUBLIC_ORIGIN: httpUrl.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' })
    .optional(),
  MAIL_FROM: z.string().min(3, { error: 'must be a sender address' }).default('Hikari <no-reply@hikari.local>'),
  STORAGE_DRIVER: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().default('auto'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  IMAGE_BED_URL: httpUrl.optional(),
  IMAGE_ALLOWED_HOSTS: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?(,[a-z0-9.-]+(:\d+)?)*$/i, { error: 'must be a comma-separated list of host names' })
    .default('lain.bgm.tv'),
  NAV_AD_URL: httpUrl.optional(),
  CHAT_URL: z
    .string()
    .regex(/^wss?:\/\//, { error: 'must start with ws:// or wss://' })
    .optional(),
  SEED_DEMO: boolFlag.default(true),
  TRUST_PROXY: boolFlag.default(false),
  ANALYTICS_URL: httpUrl.optional(),
  ANALYTICS_SITE_ID: z.string().optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json'], { error: 'must be one of auto, pretty, json' }).default('auto'),
  PAGE_CACHE_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be between 0 (off) and 4096' })
    .max(4096, { error: 'must be between 0 (off) and 4096' })
    .default(64),
  WEB_CONCURRENCY: z.coerce
    .number({ error: `must be a whole number from 1 to ${MAX_WEB_CONCURRENCY}` })
    .int({ error: `must be a whole number from 1 to ${MAX_WEB_CONCURRENCY}` })
    .min(1, { error: `must be a whole number from 1 to ${MAX_WEB_CONCURRENCY}` })
    .max(MAX_WEB_CONCURRENCY, { error: `must be a whole number from 1 to ${MAX_WEB_CONCURRENCY}` })
    .optional(),
  SLOW_QUERY_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(0, { error: 'must be between 0 (off) and 600000 milliseconds' })
    .max(600_000, { error: 'must be between 0 (off) and 600000 milliseconds' })
    .default(20),
});

export type DatabaseTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  jwtSecret: string;
  publicOrigin: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  storage:
    | { driver: 'local'; dir: string }
    | {
        driver: 's3';
        endpoint: string | undefined;
        region: string;
        bucket: string;
        accessKeyId: string;
        secretAccessKey: string;
      };
  imageBedUrl: string;
  /** Hosts whose images our /img endpoint may transform (besides our own media). */
  imageAllowedHosts: string[];
  /** The header's advertisement item, shown only when its link is configured. */
  navAdUrl: string | undefined;
  chatUrl: string | undefined;
  seedDemo: boolean;
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  analytics: { url: string; siteId: string } | undefined;
  logLevel: string;
  /** `auto`: readable lines in a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
  /** Memory for the visitor page cache of each server process, in bytes (0: off). */
  pageCacheBytes: number;
  /** Server processes sharing the port (node:cluster); 1 runs everything in this one process. */
  webConcurrency: number;
  /** Queries slower than this many milliseconds are logged at warn; 0 turns that off. */
  slowQueryMs: number;
}

type Env = Record<string, string | undefined>;

/** Reads, validates and completes the configuration. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  // An empty variable counts as unset, so `FOO= npm start` falls back to the default.
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in schema.shape && value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, `${issue?.message ?? 'is invalid'} (got "${env[variable] ?? ''}")`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  ensurePrivateDir(dataDir);
  const publicOrigin = e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`;

  let storage: Config['storage'];
  if (e.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[name]) throw new ConfigError(name, 'is required when STORAGE_DRIVER is s3');
    }
    storage = {
      driver: 's3',
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET ?? '',
      accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
    };
  } else {
    storage = { driver: 'local', dir: path.join(dataDir, 'media') };
  }

  if (e.ANALYTICS_URL && !e.ANALYTICS_SITE_ID) {
    throw new ConfigError('ANALYTICS_SITE_ID', 'is required when ANALYTICS_URL is set');
  }

  const database = parseDatabaseUrl(e.DATABASE_URL, dataDir);
  // A database in memory belongs to one process: other processes would each have an empty one.
  const inMemory = database.dialect === 'sqlite' && database.file === ':memory:';
  if (inMemory && e.WEB_CONCURRENCY !== undefined && e.WEB_CONCURRENCY > 1) {
    throw new ConfigError(
      'WEB_CONCURRENCY',
      `must be 1 with DATABASE_URL=sqlite::memory:, a database that lives inside one process (got "${env.WEB_CONCURRENCY ?? ''}")`,
    );
  }

  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir, 'JWT_SECRET'),
    publicOrigin,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    storage,
    imageBedUrl: e.IMAGE_BED_URL ?? `${publicOrigin}/media`,
    imageAllowedHosts: e.IMAGE_ALLOWED_HOSTS.split(',').map((h) => h.trim().toLowerCase()),
    navAdUrl: e.NAV_AD_URL,
    chatUrl: e.CHAT_URL,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    analytics: e.ANALYTICS_URL ? { url: e.ANALYTICS_URL, siteId: e.ANALYTICS_SITE_ID ?? '' } : undefined,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    webConcurrency: e.WEB_CONCURRENCY ?? (inMemory ? 1 : availableParallelism()),
    slowQueryMs: e.SLOW_QUERY_MS,
  };
}

export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file) throw new ConfigError('DATABASE_URL', 'must name a file after sqlite: (or :memory:)');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  return { dialect: 'postgres', url };
}

/**
 * Returns the secret kept in DATA_DIR/secrets.json, generating and saving it (mode 0600) on first use,
 * so tokens stay valid across restarts without anyone having to invent a secret.
 */
export function loadOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets.json');
  let secrets: Record<string, string> = {};
  if (existsSync(file)) {
    try {
      secrets = z.record(z.string(), z.string()).parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      throw new ConfigError(name, `could not be read from ${file}; fix or delete that file`);
    }
  }
  const existing = secrets[name];
  if (existing) return existing;
  const secret = randomBytes(48).toString('base64url');
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ ...secrets, [name]: secret }, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (error) {
    throw new ConfigError(
      name,
      `is not set and cannot be saved to ${file} (${errorCode(error)}); set ${name} or make DATA_DIR writable`,
    );
  }
  return secret;
}
