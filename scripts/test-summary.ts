// Prints one closing line for a whole test run, "tests: N passed, N failed", from the JSON reports
// that Vitest and Playwright write into reports/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] ?? 'reports');
let passed = 0;
let failed = 0;
let skipped = 0;

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []) {
  const data = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Partial<VitestReport & PlaywrightReport>;
  if (typeof data.numPassedTests === 'number') {
    passed += data.numPassedTests;
    failed += data.numFailedTests ?? 0;
    skipped += (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0);
  } else if (data.stats) {
    passed += data.stats.expected + data.stats.flaky;
    failed += data.stats.unexpected;
    skipped += data.stats.skipped;
  }
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
