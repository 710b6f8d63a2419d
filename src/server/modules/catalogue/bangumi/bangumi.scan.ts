import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Db } from '../../../db/database.ts';
import type { BangumiImportSummary, ImportProgress, ImportStep } from './bangumi.import.ts';
import { type DumpFile, parseLine } from './bangumi.parse.ts';

// Reading a dump: one jsonlines file streamed row by row, and rows written in batched transactions.

export const PROGRESS_EVERY_LINES = 2000;
const BATCH_SIZE = 200;
const MAX_MALFORMED_LISTED = 10;

type Row<F extends DumpFile> = NonNullable<ReturnType<(typeof parseLine)[F]>>;

/** One import run: where the dump is, what it writes with, and what it has counted so far. */
export interface Context {
  db: Db;
  now: Date;
  folder: string;
  summary: BangumiImportSummary;
  report: (step: ImportStep, done: number, total: number, unit: ImportProgress['unit']) => void;
}

export /** Streams one jsonlines file row by row; malformed lines are skipped, and counted unless the file was counted before. */
async function scan<F extends DumpFile>(
  ctx: Context,
  file: F,
  options: { step?: ImportStep; countMalformed: boolean },
  onRow: (row: Row<F>) => void | Promise<void>,
): Promise<void> {
  const filePath = path.join(ctx.folder, file);
  const total = (await stat(filePath)).size;
  const stream = createReadStream(filePath, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const parse = parseLine[file] as (line: string) => Row<F> | null;
  const report = (done: number) => options.step && ctx.report(options.step, done, total, 'bytes');
  let lineNumber = 0;
  report(0);
  try {
    for await (const raw of lines) {
      lineNumber += 1;
      if (lineNumber % PROGRESS_EVERY_LINES === 0) report(stream.bytesRead);
      const line = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.trim() === '') continue;
      const row = parse(line);
      if (row === null) {
        if (options.countMalformed) {
          ctx.summary.malformedLines += 1;
          if (ctx.summary.malformedAt.length < MAX_MALFORMED_LISTED)
            ctx.summary.malformedAt.push(`${file}:${lineNumber}`);
        }
        continue;
      }
      const pending = onRow(row);
      if (pending) await pending;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  report(total);
}

/** Buffers rows and writes them in one transaction per batch (one commit instead of one per row). */
export function batcher<T>(db: Db, write: (trx: Db, row: T) => Promise<void>) {
  let rows: T[] = [];
  const flush = async () => {
    if (rows.length === 0) return;
    const batch = rows;
    rows = [];
    await db.transaction().execute(async (trx) => {
      for (const row of batch) await write(trx, row);
    });
  };
  return {
    add: async (row: T) => {
      rows.push(row);
      if (rows.length >= BATCH_SIZE) await flush();
    },
    flush,
  };
}
