// Two server-like processes under a node:cluster primary, each with the bus createBus picks there (the
// cluster bus on SQLite, LISTEN/NOTIFY on PostgreSQL): `node cluster-peer.fixture.ts '<target JSON>' <topic>`.
// Prints JSON lines ({ worker, ready }, { worker, published, at }, { worker, event, at }, { exited });
// reads { publish, from } (from: 0 or 1) and { exit: true } on stdin.
import cluster from 'node:cluster';
import { createInterface } from 'node:readline';
import { connectDatabase } from '../../db/connect.ts';
import type { DatabaseTarget } from '../config.ts';
import type { PlatformLogger } from './bus.ts';
import { relayClusterBus } from './cluster-bus.ts';
import { createBus } from './create-bus.ts';

const [targetJson = '', topic = ''] = process.argv.slice(2);
const log = (level: string) => (details: object, message: string) =>
  process.stderr.write(`${JSON.stringify({ level, message, ...details })}\n`);
const logger: PlatformLogger = { error: log('error'), warn: log('warn'), info: log('info') };

interface FromWorker {
  fixture: Record<string, unknown>;
}
interface ToWorker {
  fixturePublish?: string;
  fixtureExit?: boolean;
}

if (cluster.isPrimary) {
  const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  relayClusterBus(cluster, logger);
  const workers = [cluster.fork(), cluster.fork()];
  workers.forEach((worker, index) =>
    worker.on('message', (message: FromWorker) => {
      if (message && typeof message === 'object' && 'fixture' in message) out({ worker: index, ...message.fixture });
    }),
  );
  const exits = workers.map((worker) => new Promise<number | null>((resolve) => worker.on('exit', resolve)));
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { publish?: string; from?: number; exit?: boolean };
    if (command.publish !== undefined) workers[command.from ?? 0]?.send({ fixturePublish: command.publish });
    if (command.exit) break;
  }
  for (const worker of workers) worker.send({ fixtureExit: true } satisfies ToWorker);
  out({ exited: await Promise.all(exits) });
  process.exit(0);
} else {
  const send = (fixture: Record<string, unknown>) => process.send?.({ fixture } satisfies FromWorker);
  const target = JSON.parse(targetJson) as DatabaseTarget;
  const handle = connectDatabase(target, { poolSize: 2 });
  const bus = createBus<Record<string, string>>(target, { db: handle.db, logger });
  bus.subscribe(topic, (payload) => void send({ event: payload, at: Date.now() }));
  await bus.ready();
  process.on('message', (message: ToWorker) => {
    if (message.fixturePublish !== undefined) {
      const at = Date.now();
      void bus.publish(topic, message.fixturePublish).then(() => send({ published: message.fixturePublish, at }));
    }
    if (message.fixtureExit) {
      void bus
        .close()
        .then(() => handle.close())
        .then(() => process.exit(0));
    }
  });
  send({ ready: true });
}
