// npm run bench:upload — upload throughput of the built server: 50 members at once, each asking for an
// address and PUTting a compressed photo (the worst realistic case: a 12 MP webp just under 2 MB, which
// the server decodes, checks and re-encodes), a few rounds each within the per-minute limit.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { hashPassword } from '../src/server/modules/auth/password.ts';
import { createUser } from '../src/server/modules/users/users.service.ts';
import type { UploadAddress } from '../src/shared/media/upload.ts';
import { startBenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4396);
const MEMBERS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const processes = process.env.WEB_CONCURRENCY ?? '1';
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
const MB = 1024 * 1024;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** What the browser sends after compressing a phone photo: 3000×4000 webp, 1.5–2 MB. */
async function compressedPhoto(): Promise<Buffer> {
  const width = 3000;
  const height = 4000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 11;
  for (let i = 0; i < pixels.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const y = Math.floor(i / 3 / width);
    pixels[i] = (y * 128) / height + (seed & 63);
    pixels[i + 1] = 60 + ((seed >> 8) & 63);
    pixels[i + 2] = 100 + ((seed >> 16) & 63);
  }
  // The quality the browser's loop would reach: the first of its steps under 2 MB.
  for (const quality of [80, 70, 60, 50, 40, 30, 20, 10]) {
    const webp = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .webp({ quality })
      .toBuffer();
    if (webp.length <= 2 * MB) return webp;
  }
  throw new Error('could not make a photo under 2 MB');
}

const photo = await compressedPhoto();
const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-upload-'));
const PASSWORD = 'benchmark password 123';
{
  const { db, close } = connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
  await migrateToLatest(db);
  const passwordHash = await hashPassword(PASSWORD);
  for (let i = 0; i < MEMBERS; i++)
    await createUser(db, { name: `bench_${i}`, email: `bench_${i}@bench.test`, passwordHash });
  await close();
}
const base = `http://127.0.0.1:${port}`;
const server = await startBenchServer(port, {
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  TRUST_PROXY: 'true',
  WEB_CONCURRENCY: processes,
});

try {
  const tokens = await Promise.all(
    Array.from({ length: MEMBERS }, async (_, i) => {
      const res = await fetch(`${base}/api/v2/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.78.0.${i + 1}` },
        body: JSON.stringify({ account: `bench_${i}`, password: PASSWORD }),
      });
      const body = (await res.json()) as { data?: { hikariAccessToken: string } };
      if (!body.data) throw new Error(`login failed: ${res.status}`);
      return body.data.hikariAccessToken;
    }),
  );

  const times: number[] = [];
  const failures = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token, member) => {
      for (let round = 0; round < ROUNDS; round++) {
        const begin = performance.now();
        const address = await fetch(`${base}/api/upload`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            origin: base,
            'x-forwarded-for': `10.78.0.${member + 1}`,
          },
          body: JSON.stringify({ type: 'comment', id: member + 1, format: 'webp' }),
        });
        const body = (await address.json()) as { data?: UploadAddress; code?: string };
        if (!body.data) {
          failures.set(
            `address ${address.status} ${body.code}`,
            (failures.get(`address ${address.status} ${body.code}`) ?? 0) + 1,
          );
          continue;
        }
        const put = await fetch(new URL(body.data.url, base), {
          method: 'PUT',
          headers: body.data.headers,
          body: new Uint8Array(photo),
        });
        if (!put.ok) {
          const code = ((await put.json().catch(() => ({}))) as { code?: string }).code;
          failures.set(`put ${put.status} ${code}`, (failures.get(`put ${put.status} ${code}`) ?? 0) + 1);
          continue;
        }
        await put.arrayBuffer();
        times.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const stored = times.length;
  console.log(
    `uploads of a ${(photo.length / MB).toFixed(2)} MB 3000×4000 webp, ${MEMBERS} members at once, ${ROUNDS} each, ${processes} process(es):`,
  );
  console.log(
    `  ${stored} stored in ${seconds.toFixed(1)} s: ${(stored / seconds).toFixed(2)} uploads/s, ${((stored * photo.length) / MB / seconds).toFixed(1)} MB/s in; per upload (address + PUT + check) p50 ${Math.round(percentile(times, 50))} ms, p99 ${Math.round(percentile(times, 99))} ms`,
  );
  console.log(`  refused: ${failures.size === 0 ? 'none' : [...failures].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
