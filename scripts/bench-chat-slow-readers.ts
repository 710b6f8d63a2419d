// npm run bench:chat, its slow-reader case (BENCH_CASE=slow-readers runs it alone) — members whose chat
// sockets never read, on the built server (one process, SQLite in a temporary directory).
// BENCH_SLOW_SENDERS members (100) send the largest messages (500 characters, about 1.6 kB a frame) as
// fast as the send limit lets them (18 per 10 s each) to BENCH_SLOW_RECEIVERS members (1) in turn,
// BENCH_SLOW_WARMUP s (20) with every socket reading, then BENCH_SLOW_SECONDS (120) more while each
// receiver also holds BENCH_SLOW_STUCK raw sockets (4) that finish the handshake and never read again:
// each writes a {type:'ping'} every 2 s as the spec's client does, and is opened again once the server
// has cut it. Printed: the server's resident memory (RSS, from /proc) after the warm-up, every 10 s
// while the stuck sockets are there, and after they left; the stuck sockets the server cut and how long
// they had been open; the messages the reading sockets got against those acknowledged. RSS also swings
// with the heap's own collections (some 100 MB here): read its trend, not one sample. Exits non-zero
// when the server never cut a stuck socket, or a reading socket missed a message or closed.
// BENCH_PORT (4495).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { signAccessToken } from '../src/server/modules/auth/tokens.ts';
import { CHAT_LIMITS } from '../src/server/modules/chat/chat.limits.ts';
import { createBenchMembers } from './bench-members.ts';
import { startBenchServer, type BenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const receiverCount = Number(process.env.BENCH_SLOW_RECEIVERS ?? 1);
const stuckPerReceiver = Number(process.env.BENCH_SLOW_STUCK ?? 4);
const senderCount = Number(process.env.BENCH_SLOW_SENDERS ?? 100);
const seconds = Number(process.env.BENCH_SLOW_SECONDS ?? 120);
const warmUp = Number(process.env.BENCH_SLOW_WARMUP ?? 20);
const port = Number(process.env.BENCH_PORT ?? 4495);
/** 18 messages per 10 s per sender: under the limit of 20 even when a busy server reads them in bursts. */
const SEND_EVERY_MS = 10_000 / 18;
const PING_EVERY_MS = 2_000;
const SETTLE_MS = 5_000;
const CONTENT = '光'.repeat(490);

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (stuckPerReceiver + 1 > CHAT_LIMITS.connectionsPerUser) {
  console.error(`BENCH_SLOW_STUCK is at most ${CHAT_LIMITS.connectionsPerUser - 1} (one socket of each reads).`);
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of the server: every process under this one, in MB (from /proc). */
function serverRssMb(): number {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) if (p === process.pid) return true;
    return false;
  };
  let kb = 0;
  for (const pid of parentOf.keys()) {
    if (!ours(pid)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return kb / 1024;
}

/** A client text frame as a browser writes it (masked). */
function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  return Buffer.concat([
    Buffer.from([0x81, 0x80 | payload.length]),
    mask,
    payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)),
  ]);
}

let stopping = false;
let cuts = 0;
/** How long each cut stuck socket had been open, in seconds (as seen by a peer that only writes). */
const cutAges: number[] = [];
const stuck = new Set<Socket>();

/**
 * A socket that finishes the WebSocket handshake and then never reads: paused, Node stops taking bytes
 * from the kernel once its small buffer is full. It writes a ping every 2 s; a write the server has
 * cut fails, and a new stuck socket takes its place.
 */
function openStuck(token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const opened = performance.now();
    let head = '';
    let timer: NodeJS.Timeout | undefined;
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
      stuck.add(socket);
      timer = setInterval(() => socket.write(maskedText('{"type":"ping"}')), PING_EVERY_MS);
      resolve();
    };
    socket.on('data', onData);
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      if (!stuck.delete(socket) || stopping) return;
      cuts++;
      cutAges.push((performance.now() - opened) / 1000);
      openStuck(token).catch((error: unknown) => console.error(`  a stuck socket did not reopen: ${String(error)}`));
    });
    socket.write(
      `GET /ws/chat?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
  });
}

/** An ordinary socket that reads, counting the frames of each type. */
async function openReading(token: string, counts: Map<string, number>, closes: number[]): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${token}`, { perMessageDeflate: false });
  ws.on('message', (data: Buffer) => {
    // JSON.stringify writes `type` first: `{"type":"` is 9 bytes.
    const type = data.subarray(9, data.indexOf(0x22, 9)).toString();
    const key = type === 'error' ? `error ${String((JSON.parse(data.toString()) as { code?: string }).code)}` : type;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  ws.on('close', (code) => closes.push(code));
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  return ws;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-slow-'));
const secret = randomBytes(32).toString('hex');
const handle = connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
let server: BenchServer | undefined;
const sockets: WebSocket[] = [];
try {
  await migrateToLatest(handle.db);
  const members = await createBenchMembers(handle.db, receiverCount + senderCount, 'slow');
  const tokens = await Promise.all(members.map((m) => signAccessToken(secret, { id: m.id, group: 'user' })));
  const receivers = members.slice(0, receiverCount);
  server = await startBenchServer(port, {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    JWT_SECRET: secret,
    WEB_CONCURRENCY: '1',
    SLOW_QUERY_MS: '0',
  });
  const receiverFrames = new Map<string, number>();
  const senderFrames = new Map<string, number>();
  const readingCloses: number[] = [];
  for (let m = 0; m < members.length; m++)
    sockets.push(await openReading(tokens[m] ?? '', m < receiverCount ? receiverFrames : senderFrames, readingCloses));

  // Senders in turn, each on its own timer, to the receivers in turn.
  let sent = 0;
  const timers: NodeJS.Timeout[] = [];
  sockets.slice(receiverCount).forEach((ws, s) => {
    const send = () => {
      if (ws.readyState !== WebSocket.OPEN) return;
      const to = receivers[sent % receiverCount];
      ws.send(JSON.stringify({ type: 'message', receiverId: to?.userId, content: `${CONTENT}${sent++}` }));
    };
    timers.push(setTimeout(() => timers.push(setInterval(send, SEND_EVERY_MS)), (s * SEND_EVERY_MS) / senderCount));
  });
  // Warm-up: the same messages with every socket reading, so that "before" is a server already busy.
  await sleep(warmUp * 1000);
  const before = serverRssMb();
  const sentBefore = sent;
  for (let r = 0; r < receiverCount; r++) for (let k = 0; k < stuckPerReceiver; k++) await openStuck(tokens[r] ?? '');
  console.log(
    `\nMembers whose chat sockets never read: ${receiverCount} receivers × (${stuckPerReceiver} stuck sockets + 1 ` +
      `reading), ${senderCount} senders at ${(1000 / SEND_EVERY_MS).toFixed(1)} messages/s each (500 characters, ` +
      `${Buffer.byteLength(CONTENT)} bytes of content), for ${seconds} s after ${warmUp} s with every socket reading; ` +
      `one server process on SQLite, Node ${process.versions.node}\n`,
  );
  console.log(
    `  server RSS after the warm-up (${sentBefore} messages), before the stuck sockets: ${before.toFixed(0)} MB`,
  );
  const started = performance.now();
  const samples: number[] = [];
  for (let second = 1; second <= seconds; second++) {
    await sleep(Math.max(0, started + second * 1000 - performance.now()));
    samples.push(serverRssMb());
    if (second % 10 === 0 || second === seconds)
      console.log(
        `  ${String(second).padStart(4)} s: RSS ${samples.at(-1)?.toFixed(0)} MB, ${sent - sentBefore} messages ` +
          `sent, stuck sockets cut so far ${cuts}`,
      );
  }
  for (const timer of timers) clearInterval(timer);
  // What was acknowledged reaches the reading sockets within a moment.
  await sleep(2000);
  stopping = true;
  for (const socket of stuck) socket.destroy();
  await sleep(SETTLE_MS);
  const after = serverRssMb();

  const acknowledged = senderFrames.get('message_sent') ?? 0;
  const got = receiverFrames.get('message') ?? 0;
  const errors = [...senderFrames].filter(([key]) => key.startsWith('error')).map(([key, n]) => `${key}×${n}`);
  const mb = (value: number | undefined) => `${(value ?? 0).toFixed(0)} MB`;
  const ages = cutAges.sort((a, b) => a - b);
  console.table([
    { what: 'server RSS after the warm-up, before the stuck sockets', value: mb(before), target: '', result: '' },
    {
      what: 'server RSS while they were there: least / most',
      value: `${mb(Math.min(...samples))} / ${mb(Math.max(...samples))}`,
      target: '',
      result: '',
    },
    { what: 'server RSS at the end of sending', value: mb(samples.at(-1)), target: '', result: '' },
    { what: `server RSS ${SETTLE_MS / 1000} s after the stuck sockets left`, value: mb(after), target: '', result: '' },
    {
      what: 'stuck sockets cut by the server (and opened again)',
      value: cuts === 0 ? 0 : `${cuts}, after ${ages[0]?.toFixed(0)}–${ages.at(-1)?.toFixed(0)} s open`,
      target: '> 0',
      result: cuts > 0 ? 'pass' : 'miss',
    },
    {
      what: 'messages sent / acknowledged (warm-up included)',
      value: `${sent} / ${acknowledged}`,
      target: '',
      result: '',
    },
    {
      what: 'received by the reading sockets',
      value: got,
      target: '= acknowledged',
      result: got === acknowledged ? 'pass' : 'miss',
    },
  ]);
  console.log(
    `  error frames to the senders: ${errors.join(', ') || 'none'}; reading sockets closed: ${readingCloses.join(', ') || 'none'}`,
  );
  if ((stuckPerReceiver > 0 && cuts === 0) || got !== acknowledged || readingCloses.length > 0) process.exitCode = 1;
} finally {
  stopping = true;
  for (const socket of stuck) socket.destroy();
  for (const ws of sockets) ws.terminate();
  await server?.stop();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}
