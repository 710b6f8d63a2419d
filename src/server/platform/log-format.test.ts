import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log-format.ts';
import { createLogger } from './logger.ts';

const plain = { color: false };
const time = '2026-11-23T09:00:01.000Z';

describe('formatLogLine', () => {
  it('reads a request log as method, path, status and duration', () => {
    const line = JSON.stringify({
      level: 30,
      time,
      service: 'hikari',
      msg: 'request',
      method: 'GET',
      path: '/galgame',
      status: 200,
      durationMs: 12.3,
    });
    expect(formatLogLine(line, plain)).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/galgame 200 12\.3 ms\n$/);
  });

  it('makes the address line stand out on lines of its own', () => {
    const line = JSON.stringify({
      level: 30,
      time,
      banner: true,
      msg: 'Hikari is ready at',
      url: 'http://localhost:4321',
      database: 'sqlite',
    });
    const out = formatLogLine(line, plain);
    expect(out.startsWith('\n')).toBe(true);
    expect(out).toContain('➜  Hikari is ready at  http://localhost:4321');
    expect(out).toContain('database=sqlite');
    expect(out.endsWith('\n\n')).toBe(true);
  });

  it('shows other fields as key=value and an error stack indented', () => {
    const line = JSON.stringify({
      level: 50,
      time,
      msg: 'page render failed',
      path: '/x y',
      err: { message: 'boom', stack: 'Error: boom\n    at f' },
    });
    const out = formatLogLine(line, plain);
    expect(out).toContain('ERROR page render failed path="/x y"');
    expect(out).toContain('\n    Error: boom');
  });

  it('colours only when asked', () => {
    const line = JSON.stringify({ level: 40, time, msg: 'slow' });
    expect(formatLogLine(line, plain)).not.toContain('\u001b[');
    expect(formatLogLine(line, { color: true })).toContain('\u001b[33mWARN');
  });

  it('passes lines that are not JSON through unchanged', () => {
    expect(formatLogLine('not json', plain)).toBe('not json\n');
    expect(formatLogLine('[1,2]', plain)).toBe('[1,2]\n');
  });
});

function capture(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

describe('createLogger', () => {
  it('writes JSON lines when the output is not a terminal', () => {
    const { stream, lines } = capture(false);
    createLogger('info', { stream }).info({ path: '/' }, 'hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'hello', path: '/', service: 'hikari' });
  });

  it('writes readable lines at a terminal, and JSON there when asked', () => {
    const tty = capture(true);
    createLogger('info', { stream: tty.stream }).info('hello');
    expect(tty.lines[0]).toMatch(/INFO.*hello\n$/);

    const forced = capture(true);
    createLogger('info', { stream: forced.stream, format: 'json' }).info('hello');
    expect(JSON.parse(forced.lines[0]!)).toMatchObject({ msg: 'hello' });
  });
});
