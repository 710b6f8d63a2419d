import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Every page loads the base layout's script and the islands it (and the header) hydrates at once. The
// request schemas (zod, ~24 KB gzipped) must stay out of that: code there loads a contract on use. So
// must the menus and dialogs (Radix), which load when first opened. The islands of the pages may not
// bring zod either: a visitor's page calls nothing that needs it before it is used.
const root = path.resolve(import.meta.dirname, '../..');
const layoutFiles = ['src/layouts/BaseLayout.astro', 'src/components/Header.astro'];

/** Every .astro file of the pages, layouts and components. */
function astroFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.astro'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** The modules a layout loads on every page: its `<script>` imports and its islands hydrated at once. */
function alwaysLoadedEntries(file: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  const resolve = (spec: string) => path.relative(root, path.resolve(root, path.dirname(file), spec));
  const scripts = [...source.matchAll(/<script>([\s\S]*?)<\/script>/g)].flatMap((m) =>
    [...(m[1] ?? '').matchAll(/from\s+'([^']+)'/g)].map((i) => resolve(i[1] as string)),
  );
  const imports = new Map([...source.matchAll(/import\s+(\w+)\s+from\s+'([^']+\.tsx)'/g)].map((m) => [m[1], m[2]]));
  const islands = [...source.matchAll(/<(\w+)\s[^>]*?client:(?:load|idle|visible)/g)].map((m) => {
    const spec = imports.get(m[1]);
    if (!spec) throw new Error(`${file}: no import for the island <${m[1]}>`);
    return resolve(spec);
  });
  return [...scripts, ...islands];
}

/** The static import chains from an entry to a module matching `target` (dynamic imports load on use). */
function staticChainsTo(meta: Metafile, entry: string, target: RegExp): string[][] {
  const chains: string[][] = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of meta.inputs[file]?.imports ?? []) {
      if (dep.kind !== 'import-statement' || dep.external) continue;
      if (target.test(dep.path)) chains.push([...chain, file, dep.path]);
      else visit(dep.path, [...chain, file]);
    }
  };
  visit(entry, []);
  return chains;
}

describe('the script every page loads', () => {
  const entries = layoutFiles.flatMap(alwaysLoadedEntries);

  it('finds the layout script and its islands', () => {
    expect(entries).toContain('src/stores/client-shell.ts');
    expect(entries).toContain('src/components/islands/header/SiteHeader.tsx');
    expect(entries).toContain('src/components/islands/OverlayHost.tsx');
  });

  it('does not import zod (contracts with schemas are loaded on use) or Radix (menus and dialogs load when opened)', async () => {
    const meta = await metafileOf(entries);
    const chains = entries.flatMap((entry) => [
      ...staticChainsTo(meta, entry, /node_modules\/zod\//),
      ...staticChainsTo(meta, entry, /node_modules\/@radix-ui\//),
    ]);
    expect(chains.map((chain) => chain.join(' → '))).toEqual([]);
  });
});

describe('the islands of the pages', () => {
  const files = ['src/pages', 'src/layouts', 'src/components'].flatMap(astroFiles);
  const islands = [...new Set(files.flatMap(alwaysLoadedEntries))].filter((entry) => entry.endsWith('.tsx'));

  it('are found', () => {
    expect(islands).toContain('src/components/islands/auth/LoginForm.tsx');
    expect(islands).toContain('src/components/islands/catalogue/RatingPanel.tsx');
    expect(islands).toContain('src/components/islands/catalogue/DownloadLinks.tsx');
  });

  it('do not import zod: forms and stores load their rules and contracts when first used', async () => {
    const meta = await metafileOf(islands);
    const chains = islands.flatMap((entry) => staticChainsTo(meta, entry, /node_modules\/zod\//));
    expect(chains.map((chain) => chain.join(' → '))).toEqual([]);
  });
});

async function metafileOf(entryPoints: string[]): Promise<Metafile> {
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    outdir: 'out',
    format: 'esm',
    splitting: true,
    platform: 'browser',
    jsx: 'automatic',
    external: ['astro:*'],
    loader: { '.svg': 'text', '.css': 'empty' },
    logLevel: 'silent',
  });
  return result.metafile;
}
