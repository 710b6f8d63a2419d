import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../../db/database.ts';
import { DUMP_FILES } from './bangumi.parse.ts';
import { findGalgame, readLinks, saveGames, savePeople, saveRelations } from './bangumi.phases.ts';
import type { Context } from './bangumi.scan.ts';

// Imports the galgame of a Bangumi Archive dump (https://github.com/bangumi/Archive) in streaming
// passes, so memory grows with what is imported, never with the dump:
//   1. subject.jsonlines: the ids of the galgame (rule: isGalgameSubject);
//   2. the link files, keeping only links of those games;
//   3. person.jsonlines and character.jsonlines, keeping only ids the links name;
//   4. subject.jsonlines again, saving each game; then the relations between imported games.
// Each phase is one function of bangumi.phases.ts.
// Everything is matched by Bangumi id (names for infobox-only producers, tags by name) and rows whose
// content did not change are not written, so a second run changes nothing.

export type ImportStep =
  | 'subjects'
  | 'subject-persons'
  | 'subject-characters'
  | 'person-characters'
  | 'subject-relations'
  | 'persons'
  | 'characters'
  | 'games'
  | 'relations';

export interface ImportProgress {
  step: ImportStep;
  done: number;
  total: number;
  /** Steps that read a file count bytes; the others count entries. */
  unit: 'bytes' | 'items';
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** The timestamp written on created and updated rows. */
  now?: Date;
}

export interface EntityCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface BangumiImportSummary {
  /** Lines of subject.jsonlines that parsed. */
  subjects: number;
  /** Game subjects left out by the galgame rule. */
  otherGames: number;
  games: EntityCounts;
  producers: EntityCounts;
  persons: EntityCounts;
  characters: EntityCounts;
  tags: { linked: number; created: number };
  relations: EntityCounts;
  malformedLines: number;
  /** Where the first malformed lines are, as "file:line". */
  malformedAt: string[];
}

const counts = (): EntityCounts => ({ created: 0, updated: 0, unchanged: 0 });

/** Checks the folder before anything is written; the message says what to pass instead. */
export async function checkDumpFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(
      `Bangumi dump folder not found: ${folder} (unzip a dump from https://github.com/bangumi/Archive/releases and pass its folder)`,
    );
  }
  const missing: string[] = [];
  for (const file of DUMP_FILES) {
    if (!(await stat(path.join(folder, file)).catch(() => null))?.isFile()) missing.push(file);
  }
  if (missing.length > 0) {
    throw new Error(`${folder} is not a complete Bangumi Archive dump: ${missing.join(', ')} missing`);
  }
}

export async function importBangumiDump(
  db: Db,
  folder: string,
  options: ImportOptions = {},
): Promise<BangumiImportSummary> {
  await checkDumpFolder(folder);
  const now = options.now ?? new Date();
  const summary: BangumiImportSummary = {
    subjects: 0,
    otherGames: 0,
    games: counts(),
    producers: counts(),
    persons: counts(),
    characters: counts(),
    tags: { linked: 0, created: 0 },
    relations: counts(),
    malformedLines: 0,
    malformedAt: [],
  };
  const ctx: Context = {
    db,
    now,
    folder,
    summary,
    report: (step, done, total, unit) => options.onProgress?.({ step, done, total, unit }),
  };

  const gameIds = await findGalgame(ctx);
  const links = await readLinks(ctx, gameIds);
  const saved = await savePeople(ctx, links);
  const galgameIds = await saveGames(ctx, gameIds, links, saved);
  await saveRelations(ctx, links, galgameIds);

  return summary;
}

const countsLine = (c: EntityCounts) => `${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged`;

/** The summary as lines for a terminal. */
export function formatImportSummary(s: BangumiImportSummary): string[] {
  const malformed =
    s.malformedLines === 0
      ? 'none'
      : `${s.malformedLines} skipped (${s.malformedAt.join(', ')}${s.malformedLines > s.malformedAt.length ? ', …' : ''})`;
  return [
    `subjects    ${s.subjects} read; ${s.otherGames} other games left out`,
    `games       ${countsLine(s.games)}`,
    `producers   ${countsLine(s.producers)}`,
    `persons     ${countsLine(s.persons)}`,
    `characters  ${countsLine(s.characters)}`,
    `tags        ${s.tags.linked} links, ${s.tags.created} new tags`,
    `relations   ${countsLine(s.relations)}`,
    `malformed   ${malformed}`,
  ];
}
