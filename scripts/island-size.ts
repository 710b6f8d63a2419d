// npm run size:islands — gzipped JavaScript per island, from the build output (run `npm run build` first).
// For each island: its own chunk, and everything it loads (static imports, transitively), split into
// the part only islands need and the shared runtime (React, nanostores) every island reuses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = path.resolve(import.meta.dirname, '../dist/client/_astro');
if (!existsSync(dir)) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
const gz = new Map(files.map((f) => [f, gzipSync(readFileSync(path.join(dir, f))).length]));
const importsOf = (file: string) =>
  [...readFileSync(path.join(dir, file), 'utf8').matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)].map(
    (m) => m[1] as string,
  );

function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f) || !gz.has(f)) return;
    seen.add(f);
    for (const dep of importsOf(f)) visit(dep);
  };
  visit(entry);
  return seen;
}

// The React client renderer and React itself are loaded once per page by any island.
const runtime = closure(files.find((f) => f.startsWith('client.')) ?? '');
const islands = (process.argv[2] ?? 'SiteHeader,OverlayHost,DocsSearch,CopyLinkButton').split(',');
const rows = islands.flatMap((name) => {
  const entry = files.find((f) => f.startsWith(`${name}.`));
  if (!entry) return [];
  const all = closure(entry);
  const sum = (set: Iterable<string>) => [...set].reduce((s, f) => s + (gz.get(f) ?? 0), 0);
  const own = [...all].filter((f) => !runtime.has(f));
  return [
    {
      island: name,
      'own chunk (gz B)': gz.get(entry) ?? 0,
      'with its modules (gz B)': sum(own),
      'incl. React runtime (gz B)': sum(all) + sum(runtime) - sum([...all].filter((f) => runtime.has(f))),
    },
  ];
});
console.table(rows);
