import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest PostgreSQL server programs of the Debian package, or null when none is installed. */
function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin/pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? path.join(base, newest, 'bin') : null;
}

/** Whether a throw-away PostgreSQL server can be started here (its programs are installed). */
export const postgresInstalled = postgresBin() !== null;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export interface PostgresServer {
  /** The admin address (database `postgres`). */
  url: string;
  /** An address of the database `name` on this server. */
  urlOf: (name: string) => string;
  /** Stops the server as an administrator would (`pg_ctl stop -m fast`): every connection is ended. */
  stop: () => Promise<void>;
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start: () => Promise<void>;
  /** Stops it and removes its data. */
  destroy: () => Promise<void>;
}

/**
 * A PostgreSQL server of a test's own, in a temporary folder on a free port, that the test may stop
 * and start (the shared TEST_DATABASE_URL server must never go away under other suites). As root, its
 * programs run as the `postgres` user, which the Debian package creates.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql)');
  const asRoot = process.getuid?.() === 0;
  const exec = (program: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args])
      : run(path.join(bin, program), args);
  const dir = mkdtempSync(path.join(tmpdir(), 'hikari-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--locale=C.UTF-8', '--encoding=UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', options, 'start']);
  };
  const stop = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    url: urlOf('postgres'),
    urlOf,
    start,
    stop,
    async destroy() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
