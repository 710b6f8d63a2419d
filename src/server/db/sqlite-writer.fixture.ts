// A writer in a process of its own, for the test of several processes on one SQLite file:
// `node sqlite-writer.fixture.ts <file> <transactions>`. Prints { ready }, waits for the stdin line
// { "go": true }, then runs that many read-then-write transactions on the `counter` table and prints
// { done, failed, errors }.
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { connectDatabase } from './connect.ts';

const [file = '', count = '100'] = process.argv.slice(2);
const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const handle = connectDatabase({ dialect: 'sqlite', file });
out({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  if (!(JSON.parse(line) as { go?: boolean }).go) continue;
  let failed = 0;
  const errors: string[] = [];
  for (let n = 0; n < Number(count); n++) {
    try {
      await handle.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ value: number }>`select value from counter where id = 1`.execute(trx);
        // Let the other process in between the read and the write.
        await new Promise((resolve) => setImmediate(resolve));
        await sql`update counter set value = ${Number(rows[0]?.value) + 1} where id = 1`.execute(trx);
      });
    } catch (error) {
      failed += 1;
      if (errors.length < 3) errors.push(String(error));
    }
  }
  out({ done: true, failed, errors });
  break;
}
await handle.close();
process.exit(0);
