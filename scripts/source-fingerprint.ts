import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the site build reads: sources, content, public files and the configuration around them. */
export const BUILD_INPUTS = [
  'src',
  'content',
  'public',
  'scripts/build-manifest.mjs',
  'astro.config.mjs',
  'tailwind.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

/** Files under the inputs that never reach the build. */
const IGNORED = /(\.test\.ts|\.spec\.ts|README\.md)$/;

function* files(root: string, entry: string): Generator<string> {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isFile()) {
    yield entry;
    return;
  }
  const children = readdirSync(full, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const child of children) {
    const rel = path.join(entry, child.name);
    if (child.isDirectory()) yield* files(root, rel);
    else if (child.isFile() && !IGNORED.test(child.name)) yield rel;
  }
}

/** A hash of the names and contents of every build input under `root` (not of their times). */
export function sourceFingerprint(root: string, inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(root, input)) {
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
    }
  }
  return hash.digest('hex');
}
