/** Turns pino's JSON lines into lines a person reads at a terminal. */

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '90' },
  30: { name: 'INFO ', color: '36' },
  40: { name: 'WARN ', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '41;97' },
};

/** Fields every line has; they are shown in the line's frame, not as key=value pairs. */
const FRAME = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'banner']);

export interface FormatOptions {
  color: boolean;
}

function paint(on: boolean, code: string, text: string): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function clock(time: unknown): string {
  if (typeof time !== 'string' && typeof time !== 'number') return '--:--:--';
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toTimeString().slice(0, 8);
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /[\s="]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

function statusColor(status: number): string {
  if (status >= 500) return '31';
  if (status >= 400) return '33';
  return '32';
}

function errorText(err: unknown, color: boolean): string {
  if (!err || typeof err !== 'object') return '';
  const { stack, message } = err as { stack?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : typeof message === 'string' ? message : JSON.stringify(err);
  return `\n${paint(color, '31', text.replace(/^/gm, '    '))}`;
}

/**
 * One readable line (with a newline) for one JSON log line. Request logs read as
 * `12:00:01 INFO  GET /galgame 200 12.3 ms`; a line logged with `banner: true` (the address to open)
 * stands out on lines of its own. Anything that is not JSON is passed through unchanged.
 */
export function formatLogLine(line: string, options: FormatOptions): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return line.endsWith('\n') ? line : `${line}\n`;
    entry = parsed as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const { color } = options;
  const level = LEVELS[Number(entry.level)] ?? { name: 'LOG  ', color: '37' };
  const head = `${paint(color, '90', clock(entry.time))} ${paint(color, level.color, level.name)}`;
  const msg = typeof entry.msg === 'string' ? entry.msg : '';

  if (entry.banner === true) {
    const url = typeof entry.url === 'string' ? entry.url : '';
    const rest = Object.entries(entry)
      .filter(([key]) => !FRAME.has(key) && key !== 'url')
      .map(([key, value]) => `${key}=${valueText(value)}`)
      .join(' ');
    const arrow = paint(color, '1;32', '➜');
    return `\n  ${arrow}  ${paint(color, '1', msg)}${url ? `  ${paint(color, '1;4;36', url)}` : ''}\n${rest ? `     ${paint(color, '90', rest)}\n` : ''}\n`;
  }

  if (msg === 'request' && typeof entry.method === 'string' && typeof entry.path === 'string') {
    const status = Number(entry.status);
    const ms = typeof entry.durationMs === 'number' ? ` ${paint(color, '90', `${entry.durationMs} ms`)}` : '';
    return `${head} ${entry.method} ${entry.path} ${paint(color, statusColor(status), String(entry.status))}${ms}\n`;
  }

  const pairs = Object.entries(entry)
    .filter(([key]) => !FRAME.has(key) && key !== 'err')
    .map(([key, value]) => `${paint(color, '90', `${key}=`)}${valueText(value)}`)
    .join(' ');
  return `${head} ${msg}${pairs ? ` ${pairs}` : ''}${errorText(entry.err, color)}\n`;
}
