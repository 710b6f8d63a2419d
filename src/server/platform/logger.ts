import { pino, type DestinationStream, type Logger } from 'pino';
import { formatLogLine } from './log-format.ts';

export type { Logger };

export type LogFormat = 'auto' | 'pretty' | 'json';

export interface LoggerOptions {
  /** `auto` (default): readable lines when stdout is a terminal, JSON lines otherwise. */
  format?: LogFormat;
  /** Where lines go; stdout by default. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A pino destination that turns each JSON line into a readable one before writing it. */
function prettyDestination(out: NodeJS.WritableStream, color: boolean): DestinationStream {
  return {
    write(line: string) {
      out.write(formatLogLine(line, { color }));
    },
  };
}

/**
 * Structured logs: one JSON object per line for machines (pipes, files, log collectors), or readable
 * lines for a person at a terminal. `LOG_FORMAT=json` forces JSON in a terminal too.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const out = options.stream ?? process.stdout;
  const format = options.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  const settings = {
    level,
    base: { service: 'hikari' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
  };
  if (pretty) {
    const color = out.isTTY === true && !process.env.NO_COLOR;
    return pino(settings, prettyDestination(out, color));
  }
  if (options.stream) return pino(settings, options.stream as DestinationStream);
  // Written at once, not in the background: a line logged just before `process.exit` (the shutdown's
  // last words, a worker's stop seen by the primary) is neither lost nor overtaken by a later one.
  return pino(settings, pino.destination({ dest: 1, sync: true }));
}
