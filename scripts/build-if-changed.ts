/**
 * Builds the site only when its sources changed since the last build (`npm start`, `npm run test:e2e`).
 * The fingerprint is a hash of every file that goes into the build; it is written next to the build
 * output only after a build succeeds. The build's own chatter goes to `.astro/last-build.log` and is
 * printed only when the build fails. `--force` builds whatever the fingerprint says.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_INPUTS, sourceFingerprint } from './source-fingerprint.ts';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist/.source-hash');
const logFile = path.join(root, '.astro/last-build.log');

function isBuilt(): boolean {
  return existsSync(path.join(root, 'dist/server/entry.mjs')) && existsSync(path.join(root, 'dist/client'));
}

function runBuild(): Promise<number> {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log: Buffer[] = [];
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => log.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => log.push(chunk));
    child.on('error', (error) => {
      log.push(Buffer.from(String(error)));
      resolve(1);
    });
    child.on('close', (code) => {
      writeFileSync(logFile, Buffer.concat(log));
      resolve(code ?? 1);
    });
  });
}

const force = process.argv.includes('--force');
const fingerprint = sourceFingerprint(root, BUILD_INPUTS);
const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';

if (!force && isBuilt() && previous === fingerprint) {
  process.stdout.write('The build is up to date (no source changed since it was made).\n');
} else {
  process.stdout.write(isBuilt() ? 'Sources changed; building the site… ' : 'Building the site… ');
  const started = performance.now();
  const code = await runBuild();
  if (code !== 0) {
    process.stdout.write('failed.\n\n');
    process.stderr.write(readFileSync(logFile, 'utf8'));
    process.stderr.write(
      `\nThe build failed (exit code ${code}); its whole output is in ${path.relative(root, logFile)}.\n`,
    );
    process.exit(code);
  }
  writeFileSync(stampFile, `${fingerprint}\n`);
  process.stdout.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
}
