import type { Config } from './platform/config.ts';
import type { Logger } from './platform/logger.ts';
import type { Db, DbDialect } from './db/database.ts';
import type { Mailer } from './platform/mail.ts';
import type { ViewCounter } from './modules/catalogue/view-counter.ts';

/**
 * What every part of the server shares: created once by the server entry (or a test) and handed to
 * the API router, the WebSocket gateway and, through Astro.locals, to server-rendered pages.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  db: Db;
  dialect: DbDialect;
  mailer: Mailer;
  views: ViewCounter;
  version: string;
  buildId: string;
  startedAt: number;
}
