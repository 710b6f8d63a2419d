import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The browser gets its messages from the page (`page-messages.ts`), in the page's language only: no
 * module the browser loads may import a catalogue. This walks the static imports (type-only ones are
 * erased) from every client entry: the islands, the stores, and the scripts of .astro files.
 */
const SRC = path.resolve(import.meta.dirname, '../..');
const I18N = path.join(SRC, 'shared/i18n');
const CATALOGUE_MODULES = [path.join(I18N, 'catalogues.ts'), path.join(I18N, 'en'), path.join(I18N, 'zh-CN')];

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full, ext);
    return ext.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The relative modules `code` loads at run time (`import type` and `export type` excluded). */
function runtimeImports(code: string, from: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const [, , typeOnly, specifier] = match;
    if (typeOnly || !specifier?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(from), specifier);
    if (existsSync(target) && statSync(target).isFile()) found.push(target);
  }
  return found;
}

/** The client `<script>` blocks of an .astro file (not `is:inline`, not JSON). */
function astroScripts(file: string): string {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/<script(?![^>]*(?:is:inline|application\/json))[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1])
    .join('\n');
}

function reachable(entries: { file: string; code: string }[]): Map<string, string> {
  const via = new Map<string, string>();
  const queue = entries.flatMap(({ file, code }) => runtimeImports(code, file).map((dep) => [dep, file] as const));
  while (queue.length > 0) {
    const [file, parent] = queue.pop()!;
    if (via.has(file)) continue;
    via.set(file, parent);
    if (/\.(ts|tsx|js|mjs)$/.test(file)) {
      for (const dep of runtimeImports(readFileSync(file, 'utf8'), file)) queue.push([dep, file]);
    }
  }
  return via;
}

describe('client bundles and the catalogues', () => {
  const entries = [
    ...filesUnder(path.join(SRC, 'components/islands'), /\.tsx?$/),
    ...filesUnder(path.join(SRC, 'stores'), /\.ts$/),
  ].map((file) => ({ file, code: readFileSync(file, 'utf8') }));
  const astro = filesUnder(SRC, /\.astro$/).map((file) => ({ file, code: astroScripts(file) }));
  const graph = reachable([...entries, ...astro]);

  it('walks the real graph (islands reach the page message lookup)', () => {
    expect(entries.length).toBeGreaterThan(10);
    expect(graph.has(path.join(I18N, 'page-messages.ts'))).toBe(true);
    expect(graph.has(path.join(I18N, 'index.ts'))).toBe(true);
  });

  it('loads no catalogue in the browser', () => {
    const leaks = [...graph.keys()]
      .filter((file) => CATALOGUE_MODULES.some((m) => file === m || file.startsWith(m + path.sep)))
      .map((file) => `${path.relative(SRC, file)} (imported by ${path.relative(SRC, graph.get(file)!)})`);
    expect(leaks).toEqual([]);
  });

  it('would notice a catalogue imported by an island', () => {
    const island = path.join(SRC, 'components/islands/Example.tsx');
    const leaked = reachable([{ file: island, code: "import { en } from '../../shared/i18n/en/index.ts';" }]);
    expect(leaked.has(path.join(I18N, 'en/index.ts'))).toBe(true);
  });
});
