import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout, one object per line. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'hikari' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
  });
}
