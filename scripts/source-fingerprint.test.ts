import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceFingerprint } from './source-fingerprint.ts';

describe('sourceFingerprint', () => {
  let root: string;
  const inputs = ['src', 'astro.config.mjs'];

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'hikari-fp-'));
    mkdirSync(path.join(root, 'src/pages'), { recursive: true });
    writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>hi</h1>');
    writeFileSync(path.join(root, 'astro.config.mjs'), 'export default {}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stays the same when nothing that is built changed, even if file times did', () => {
    const before = sourceFingerprint(root, inputs);
    utimesSync(path.join(root, 'src/pages/index.astro'), new Date(), new Date(Date.now() + 60_000));
    writeFileSync(path.join(root, 'src/pages/index.test.ts'), 'test');
    expect(sourceFingerprint(root, inputs)).toBe(before);
  });

  it('changes when a source changes, appears or is renamed', () => {
    const before = sourceFingerprint(root, inputs);
    writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>hello</h1>');
    const edited = sourceFingerprint(root, inputs);
    expect(edited).not.toBe(before);
    writeFileSync(path.join(root, 'src/pages/about.astro'), '');
    const added = sourceFingerprint(root, inputs);
    expect(added).not.toBe(edited);
    rmSync(path.join(root, 'src/pages/about.astro'));
    writeFileSync(path.join(root, 'src/pages/other.astro'), '');
    expect(sourceFingerprint(root, inputs)).not.toBe(added);
    writeFileSync(path.join(root, 'astro.config.mjs'), 'export default { a: 1 }');
    expect(sourceFingerprint(root, inputs)).not.toBe(before);
  });
});
