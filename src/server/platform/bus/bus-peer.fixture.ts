// A bus in a process of its own, for the cross-process tests: `node bus-peer.fixture.ts <url> <topic> <name>`.
// Prints one JSON line per thing that happens ({ ready }, { event }); reads commands as JSON lines on
// stdin: { publish: payload } or { exit: true }.
import { createInterface } from 'node:readline';
import { connectDatabase } from '../../db/connect.ts';
import type { PlatformLogger } from './bus.ts';
import { createPostgresBus } from './postgres-bus.ts';

const [url = '', topic = '', name = 'hikari-bus-peer'] = process.argv.slice(2);
const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const log = (level: string) => (details: object, message: string) =>
  process.stderr.write(`${JSON.stringify({ level, message, ...details })}\n`);
const logger: PlatformLogger = { error: log('error'), warn: log('warn'), info: log('info') };

const handle = connectDatabase({ dialect: 'postgres', url }, { poolSize: 2 });
const bus = createPostgresBus<Record<string, string>>({ url, db: handle.db, logger, applicationName: name });
bus.subscribe(topic, (payload) => void out({ event: payload }));
await bus.ready();
out({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { publish?: string; exit?: boolean };
  if (command.publish !== undefined) {
    await bus.publish(topic, command.publish);
    out({ published: command.publish });
  }
  if (command.exit) break;
}
await bus.close();
await handle.close();
// stdin stays open after the loop; the process is done.
process.exit(0);
