// A job runner in a process of its own, for the cross-process tests:
// `node job-peer.fixture.ts '<database target JSON>' <worker id> [leaseMs]`. Prints JSON lines
// ({ ready }, { claimedAtOnce }, { handled }, { started }, { stopped }); stops on the stdin line { "stop": true }.
// Jobs named "race.job" are handled at once; "hang.job" never finishes (the test kills the process).
import { createInterface } from 'node:readline';
import { connectDatabase } from '../../db/connect.ts';
import type { DatabaseTarget } from '../config.ts';
import type { PlatformLogger } from '../bus/bus.ts';
import { createJobRunner } from './job-runner.ts';

const [targetJson = '', workerId = 'peer', leaseMs = '30000'] = process.argv.slice(2);
const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const log = (level: string) => (details: object, message: string) =>
  process.stderr.write(`${JSON.stringify({ level, message, ...details })}\n`);
const logger: PlatformLogger = { error: log('error'), warn: log('warn'), info: log('info') };

let running = 0;
const handle = connectDatabase(JSON.parse(targetJson) as DatabaseTarget, { poolSize: 4 });
const runner = createJobRunner<{ 'race.job': { n: number }; 'hang.job': { n: number } }>({
  db: handle.db,
  dialect: handle.dialect,
  logger,
  workerId,
  concurrency: 4,
  pollMs: 20,
  leaseMs: Number(leaseMs),
  handlers: {
    'race.job': async (payload, job) => {
      running += 1;
      out({ claimedAtOnce: running });
      // Long enough that one process cannot drain the queue before the other's next poll.
      await new Promise((resolve) => setTimeout(resolve, 10));
      out({ handled: payload.n, id: job.id });
      running -= 1;
    },
    'hang.job': async (payload, job) => {
      out({ started: payload.n, id: job.id });
      await new Promise(() => {});
    },
  },
});
runner.start();
out({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  if ((JSON.parse(line) as { stop?: boolean }).stop) break;
}
await runner.stop();
await handle.close();
out({ stopped: true });
// stdin stays open after the loop; the process is done.
process.exit(0);
