// npm run bench:chat, its latency case (BENCH_CASE=latency runs it alone) — private messages in real time
// through the built server's /ws/chat under load:
// BENCH_SOCKETS members (2000) with one socket each, connected 16 at a time per process (retrying
// 503s), then probe messages one at a time until the server has settled; then BENCH_RATE messages a
// second (200) between random pairs for BENCH_SECONDS (20, after BENCH_WARMUP of 2 s that is not in the
// latencies), one every 1000/BENCH_RATE ms, each with a clientId, the senders in turn (one message per
// member per 10 s at the defaults, far under the limit of 20). The bench holds both ends, so on one
// clock: the delivery latency (writing the frame on the sender's socket → the `message` frame on the
// receiver's) and the `message_sent` latency, p50/p95/p99/max, and the delivery p99 of each second;
// messages sent, acknowledged, delivered and lost (neither delivered within 5 s after the run nor
// stored), and this run's stored rows against the acknowledged count (no duplicates, none missing).
// Presence and receipt frames are ignored. To tell where time goes: CPU of the bench, the servers and
// PostgreSQL while sending, how long the servers' main threads ran and waited for a CPU, a WebSocket
// ping to each server process every 100 ms (its event loop), and on PostgreSQL the statements waiting
// on a lock every 100 ms. Targets: delivery p99 < 50 ms in one process, < 100 ms across two; none
// lost. Exits non-zero when a message is lost, the stored count differs, or a socket closed (the
// latency target is printed as pass/miss).
// SQLite in a temporary directory by default, one server process. BENCH_DATABASE_URL=postgres://…/name
// (created when missing; each run adds its own members and messages) runs two server processes on it
// (BENCH_PROCESSES=1 for one), half the sockets on each, every message sent to a member connected to
// the other process (delivered through LISTEN/NOTIFY). BENCH_PORT (4495, and the next one).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { connectDatabase } from '../src/server/db/connect.ts';
import { migrateToLatest } from '../src/server/db/migrator.ts';
import { signAccessToken } from '../src/server/modules/auth/tokens.ts';
import { createBenchMembers } from './bench-members.ts';
import { startBenchServer, type BenchServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const memberCount = Number(process.env.BENCH_SOCKETS ?? 2000);
const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const warmUp = Number(process.env.BENCH_WARMUP ?? 2);
const port = Number(process.env.BENCH_PORT ?? 4495);
const pgUrl = process.env.BENCH_DATABASE_URL;
const processCount = pgUrl ? Number(process.env.BENCH_PROCESSES ?? 2) : 1;
const crossProcess = processCount > 1;
const TARGET_P99_MS = crossProcess ? 100 : 50;
const DRAIN_MS = 5000;
/** Upgrades under way at once per server process (it refuses more than 64 with 503). */
const CONNECTING = 16;
/** Before the run: probes delivered within half the target, this many in a row, for at most SETTLE_MAX_MS. */
const SETTLED_RUN = 10;
const SETTLE_MAX_MS = 60_000;
const SEND_LIMIT = 20;
const SEND_WINDOW_S = 10;

if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('Build the site first: npm run build');
  process.exit(1);
}
if (pgUrl && processCount !== 1 && processCount !== 2) {
  console.error('BENCH_PROCESSES is 1 or 2.');
  process.exit(1);
}
if ((rate * SEND_WINDOW_S) / memberCount > SEND_LIMIT) {
  console.error(`${rate}/s from ${memberCount} members is over ${SEND_LIMIT} per ${SEND_WINDOW_S} s each.`);
  process.exit(1);
}

/** Creates the PostgreSQL database of BENCH_DATABASE_URL when it does not exist yet. */
async function ensurePgDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DATABASE_URL names the database "${name}"`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

// A server left on the port (another bench) would answer in place of ours, with another JWT secret.
for (let s = 0; s < processCount; s++) {
  const taken = await fetch(`http://127.0.0.1:${port + s}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) {
    console.error(`Port ${port + s} is in use: stop what listens there, or set BENCH_PORT.`);
    process.exit(1);
  }
}
if (pgUrl) await ensurePgDatabase(pgUrl);
const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-bench-chat-'));
const secret = randomBytes(32).toString('hex');
const handle = pgUrl
  ? connectDatabase({ dialect: 'postgres', url: pgUrl })
  : connectDatabase({ dialect: 'sqlite', file: path.join(dataDir, 'hikari.db') });
const { db } = handle;

const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** CPU ticks (user + system) of every process, with its name and parent, from /proc. */
function processTicks(): Map<number, { name: string; parent: number; ticks: number }> {
  const out = new Map<number, { name: string; parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      out.set(Number(entry), {
        name: stat.slice(stat.indexOf('(') + 1, close),
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** Busy and total ticks of the whole machine (all cores), from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - (v[3] ?? 0) - (v[4] ?? 0), total };
}

/**
 * Nanoseconds a process's main thread (its event loop) has run on a CPU and waited for one, from
 * /proc/<pid>/schedstat: a slow event loop that neither runs nor waits for a CPU is blocked (I/O).
 */
function mainThreadSchedule(pid: number): { running: number; waiting: number } {
  try {
    const [running = 0, waiting = 0] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { running, waiting };
  } catch {
    return { running: 0, waiting: 0 };
  }
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Opens a socket, retrying refusals (503 while too many token checks are under way) and resets. */
async function openSocket(url: string, onFrame: (data: Buffer) => void): Promise<WebSocket> {
  for (let attempt = 0; ; attempt++) {
    const result = await new Promise<WebSocket | string>((resolve) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        ws.terminate();
        resolve(`HTTP ${res.statusCode}`);
      });
      // Also after the open: an error without a listener would end the bench.
      ws.on('error', (error) => resolve(error.message));
      ws.on('message', (data: Buffer) => onFrame(data));
    });
    if (typeof result !== 'string') return result;
    if (attempt >= 20 || result.startsWith('HTTP 4')) throw new Error(`${url.split('?')[0]}: ${result}`);
    await new Promise((resolve) => setTimeout(resolve, 100 + 100 * attempt));
  }
}

interface Probes {
  /** Round trips of a WebSocket ping to each server process (its event loop answers the pong). */
  pings: number[][];
  /** Round trips of `select 1`-like samples to PostgreSQL from the bench, and what they saw. */
  database: number[];
  lockWaits: number[];
  /** The statements seen waiting on a lock, by their text, and how often. */
  waiters: Map<string, number>;
  active: number[];
  stop: () => Promise<void>;
}

/**
 * Every 100 ms while sending: a ping on one socket per server process (how long its event loop takes
 * to answer), and on PostgreSQL the statements of the database that wait on a lock or run.
 */
async function startProbes(probeSockets: WebSocket[]): Promise<Probes> {
  const pings = probeSockets.map(() => [] as number[]);
  const sentPings = probeSockets.map(() => [] as number[]);
  probeSockets.forEach((ws, s) =>
    ws.on('pong', () => {
      const at = sentPings[s]?.shift();
      if (at !== undefined) pings[s]?.push(performance.now() - at);
    }),
  );
  const client = pgUrl ? new pg.Client({ connectionString: pgUrl }) : null;
  // A sample that fails (the connection ended) is left out; it must not end the bench.
  client?.on('error', () => {});
  await client?.connect();
  const probes: Probes = { pings, database: [], lockWaits: [], waiters: new Map(), active: [], stop: async () => {} };
  let sampling = false;
  const timer = setInterval(() => {
    probeSockets.forEach((ws, s) => {
      sentPings[s]?.push(performance.now());
      ws.ping();
    });
    if (!client || sampling) return;
    sampling = true;
    const at = performance.now();
    client
      .query<{ waiting: string; active: string; queries: string[] | null }>(
        `select count(*) filter (where wait_event_type = 'Lock') as waiting,
                array_agg(left(query, 80)) filter (where wait_event_type = 'Lock') as queries,
                count(*) filter (where state = 'active') as active
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      )
      .then(({ rows }) => {
        probes.database.push(performance.now() - at);
        probes.lockWaits.push(Number(rows[0]?.waiting ?? 0));
        for (const query of rows[0]?.queries ?? []) probes.waiters.set(query, (probes.waiters.get(query) ?? 0) + 1);
        probes.active.push(Number(rows[0]?.active ?? 0));
      })
      .catch(() => {})
      .finally(() => (sampling = false));
  }, 100);
  probes.stop = async () => {
    clearInterval(timer);
    await client?.end();
  };
  return probes;
}

const tag = randomBytes(3).toString('hex');
await migrateToLatest(db);
const members = await createBenchMembers(db, memberCount, `chat_${tag}`);
const tokens = await Promise.all(members.map((m) => signAccessToken(secret, { id: m.id, group: 'user' })));
const byPublicId = new Map(members.map((m, i) => [m.userId, i]));

// Each message by number: when its frame was written, acknowledged, delivered (performance.now() ms).
const capacity = Math.round(rate * (warmUp + seconds));
const receiver = new Int32Array(capacity);
const sentAt = new Float64Array(capacity);
const ackAt = new Float64Array(capacity);
const deliveredAt = new Float64Array(capacity);
const errorCodes = new Map<string, number>();
const closes = new Map<string, number>();
let duplicates = 0;
let misrouted = 0;
/** Frames the bench could not write: the sender's socket had closed. */
let unwritten = 0;
let otherFrames = 0;
const clientIdOf = (n: number) => `${tag}_${String(n).padStart(7, '0')}`;
const numberOf = (clientId: string) => (clientId.startsWith(`${tag}_`) ? Number(clientId.slice(tag.length + 1)) : -1);
/** Probes before the run, each waiting for its delivery: by number, what to call with the latency. */
const probeWaiters = new Map<number, (at: number) => void>();

/** Frames for member `m`: only `message`, `message_sent` and `error` are parsed; the rest is counted. */
function onFrame(m: number, data: Buffer): void {
  const at = performance.now();
  // JSON.stringify writes `type` first: `{"type":"` is 9 bytes, then the type's first letter.
  const kind = data.length > 9 && data[0] === 0x7b && data[2] === 0x74 ? data[9] : -1;
  if (kind !== 0x6d && kind !== 0x65 && kind !== -1) {
    otherFrames++;
    return;
  }
  let frame: { type: string; content?: string; receiverId?: number; clientId?: string | null; code?: string };
  try {
    frame = JSON.parse(data.toString()) as typeof frame;
  } catch {
    // Thrown here it would end the bench and leave the servers running.
    errorCodes.set('not JSON', (errorCodes.get('not JSON') ?? 0) + 1);
    return;
  }
  if (frame.type === 'message' && frame.content?.startsWith('probe ')) {
    probeWaiters.get(Number(frame.content.slice(6)))?.(at);
  } else if (frame.type === 'message') {
    const n = Number(frame.content?.slice(6));
    if (!(n >= 0 && n < capacity) || byPublicId.get(frame.receiverId ?? 0) !== m || receiver[n] !== m) misrouted++;
    else if (deliveredAt[n]) duplicates++;
    else deliveredAt[n] = at;
  } else if (frame.type === 'message_sent') {
    const n = numberOf(frame.clientId ?? '');
    if (n >= 0 && n < capacity && !ackAt[n]) ackAt[n] = at;
  } else if (frame.type === 'error') {
    errorCodes.set(frame.code ?? '?', (errorCodes.get(frame.code ?? '?') ?? 0) + 1);
  } else otherFrames++;
}

const servers: BenchServer[] = [];
const sockets: WebSocket[] = [];
try {
  for (let s = 0; s < processCount; s++) {
    servers.push(
      await startBenchServer(port + s, {
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        JWT_SECRET: secret,
        WEB_CONCURRENCY: '1',
        SLOW_QUERY_MS: '0',
        ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
      }),
    );
  }
  const serverOf = (m: number) => m % processCount;
  const serverPids = [...processTicks()].filter(([, p]) => p.parent === process.pid).map(([pid]) => pid);

  // Connect gradually: CONNECTING upgrades at a time per process.
  const connectStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTING * processCount }, async () => {
      for (let m = next++; m < memberCount; m = next++) {
        const url = `ws://127.0.0.1:${port + serverOf(m)}/ws/chat?token=${tokens[m]}`;
        const ws = await openSocket(url, (data) => onFrame(m, data));
        ws.on('close', (code) => closes.set(String(code), (closes.get(String(code)) ?? 0) + 1));
        sockets[m] = ws;
      }
    }),
  );
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  // The server is still busy with what the connections started (presence, deliveries of waiting
  // messages): probe one message at a time until SETTLED_RUN in a row are delivered quickly.
  const settleStarted = performance.now();
  const probeTag = randomBytes(3).toString('hex');
  const pairs = memberCount - (memberCount % 2);
  let settled = 0;
  for (let k = 0; settled < SETTLED_RUN && performance.now() - settleStarted < SETTLE_MAX_MS; k++) {
    const from = (2 * k) % pairs;
    const to = from + 1;
    const took = await new Promise<number>((resolve) => {
      const timeout = setTimeout(() => resolve(Infinity), 2000);
      const start = performance.now();
      probeWaiters.set(k, (at) => {
        clearTimeout(timeout);
        resolve(at - start);
      });
      sockets[from]?.send(
        `{"type":"message","receiverId":${members[to]?.userId},"content":"probe ${k}","clientId":"${probeTag}_${k}"}`,
      );
    });
    probeWaiters.delete(k);
    settled = took < TARGET_P99_MS / 2 ? settled + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const settleSeconds = (performance.now() - settleStarted) / 1000;
  otherFrames = 0;

  // Senders in a shuffled turn; receivers at random (on the other process when there are two).
  const order = members.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const pickReceiver = (from: number) => {
    if (crossProcess) {
      const half = Math.floor((memberCount - 1 - (1 - (from % 2))) / 2) + 1;
      return Math.floor(Math.random() * half) * 2 + (1 - (from % 2));
    }
    const to = Math.floor(Math.random() * (memberCount - 1));
    return to >= from ? to + 1 : to;
  };
  const warmUpCount = Math.round(rate * warmUp);
  let sent = 0;
  const interval = 1000 / rate;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const schedules = () => serverPids.map(mainThreadSchedule);
  let before = {
    procs: processTicks(),
    machine: machineTicks(),
    client: process.cpuUsage(),
    schedules: schedules(),
    at: 0,
  };
  let measuredFrom = 0;
  let probesStarted: Promise<Probes> | undefined;
  const sendStarted = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(capacity, Math.floor((performance.now() - sendStarted) / interval) + 1);
      while (sent < due) {
        if (sent === warmUpCount) {
          before = {
            procs: processTicks(),
            machine: machineTicks(),
            client: process.cpuUsage(),
            schedules: schedules(),
            at: performance.now(),
          };
          loop.enable();
          measuredFrom = before.at;
          probesStarted = startProbes(Array.from({ length: processCount }, (_, s) => sockets[s] as WebSocket));
        }
        const n = sent++;
        const from = order[n % memberCount] as number;
        const to = pickReceiver(from);
        receiver[n] = to;
        const frame = `{"type":"message","receiverId":${members[to]?.userId},"content":"bench ${n}","clientId":"${clientIdOf(n)}"}`;
        sentAt[n] = performance.now();
        const ws = sockets[from];
        if (ws?.readyState !== WebSocket.OPEN) unwritten++;
        ws?.send(frame);
      }
      if (sent >= capacity) {
        clearInterval(timer);
        resolve();
      }
    }, interval);
  });
  const measuredSeconds = (performance.now() - measuredFrom) / 1000;
  loop.disable();
  const probes = await probesStarted;
  await probes?.stop();
  const after = {
    procs: processTicks(),
    machine: machineTicks(),
    client: process.cpuUsage(before.client),
    schedules: schedules(),
  };
  const loadAfter = loadavg()[0] ?? 0;

  // Drain: wait up to DRAIN_MS for every message to be delivered.
  const drainUntil = performance.now() + DRAIN_MS;
  const undeliveredCount = () => {
    let n = 0;
    for (let i = 0; i < sent; i++) if (!deliveredAt[i]) n++;
    return n;
  };
  while (undeliveredCount() > 0 && performance.now() < drainUntil) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // The database: this run's messages, by clientId.
  const stored = await db
    .selectFrom('private_message')
    .select(['client_id', 'delivered_at'])
    .where('client_id', 'like', `${tag}%`)
    .execute();
  const storedIds = new Set(stored.map((r) => r.client_id));
  const markedDelivered = stored.filter((r) => r.delivered_at !== null).length;

  const measured = (n: number) => n >= warmUpCount;
  const delivery: number[] = [];
  const ack: number[] = [];
  let acknowledged = 0;
  let delivered = 0;
  let lost = 0;
  let undelivered = 0;
  for (let n = 0; n < sent; n++) {
    const sentTime = sentAt[n] as number;
    if (ackAt[n]) acknowledged++;
    if (deliveredAt[n]) delivered++;
    else {
      undelivered++;
      if (!storedIds.has(clientIdOf(n))) lost++;
    }
    if (!measured(n)) continue;
    if (ackAt[n]) ack.push((ackAt[n] as number) - sentTime);
    if (deliveredAt[n]) delivery.push((deliveredAt[n] as number) - sentTime);
  }
  delivery.sort((a, b) => a - b);
  ack.sort((a, b) => a - b);

  // CPU during the measured part, as a share of one core.
  const cpu = (ticks: number) => `${Math.round((100 * ticks) / TICKS_PER_SECOND / measuredSeconds)} %`;
  const ticksOf = (pid: number) => (after.procs.get(pid)?.ticks ?? 0) - (before.procs.get(pid)?.ticks ?? 0);
  let postgresTicks = 0;
  for (const [pid, p] of after.procs) if (p.name === 'postgres') postgresTicks += ticksOf(pid);
  const busy = after.machine.busy - before.machine.busy;
  const total = after.machine.total - before.machine.total;
  const clientMs = (after.client.user + after.client.system) / 1000;

  const mode = crossProcess
    ? `two server processes on PostgreSQL, every message to a member on the other process`
    : `one server process on ${pgUrl ? 'PostgreSQL' : 'SQLite'}`;
  console.log(
    `\nPrivate messages over /ws/chat: ${memberCount} sockets (one per member), ${mode}; ` +
      `${rate} messages/s for ${seconds} s after ${warmUp} s of warm-up; Node ${process.versions.node}, ` +
      `${cpus().length} CPUs, load ${loadAfter.toFixed(1)} after the run\n`,
  );
  console.log(
    `  connected ${sockets.length} sockets in ${connectSeconds.toFixed(1)} s; the server ` +
      (settled >= SETTLED_RUN
        ? `settled in ${settleSeconds.toFixed(1)} s more (${SETTLED_RUN} probe messages in a row delivered within ${TARGET_P99_MS / 2} ms)`
        : `had not settled after ${SETTLE_MAX_MS / 1000} s of probe messages`),
  );
  console.log(
    `  CPU while sending (share of one core): bench client ${Math.round((100 * clientMs) / 1000 / measuredSeconds)} %, ` +
      `server ${serverPids.map((pid) => cpu(ticksOf(pid))).join(' + ')}, PostgreSQL ${pgUrl ? cpu(postgresTicks) : '—'}; ` +
      `machine ${Math.round((100 * busy) / Math.max(1, total))} % busy of ${cpus().length} cores`,
  );
  const share = (ns: number) => `${Math.round(ns / 1e7 / measuredSeconds)} %`;
  console.log(
    `  server event loops (main threads) while sending: ` +
      serverPids
        .map((_, s) => {
          const running = (after.schedules[s]?.running ?? 0) - (before.schedules[s]?.running ?? 0);
          const waiting = (after.schedules[s]?.waiting ?? 0) - (before.schedules[s]?.waiting ?? 0);
          return `${share(running)} running, ${share(waiting)} waiting for a CPU`;
        })
        .join('; ') +
      ` (the rest of the time idle or blocked)`,
  );
  console.log(
    `  bench client event loop delay: p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; ` +
      `${otherFrames} other frames (presence, receipts: ignored) while sending`,
  );
  const ms = (v: number) => Number(v.toFixed(1));
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const rows = [
    { what: 'delivery (frame written → receiver has `message`)', list: delivery, target: true },
    { what: 'message_sent (frame written → sender has it)', list: ack, target: false },
    ...(probes?.pings ?? []).map((list, s) => ({
      what: `ping → pong, server process ${s + 1} (its event loop)`,
      list: sorted(list),
      target: false,
    })),
    ...(probes && pgUrl
      ? [{ what: 'PostgreSQL: a pg_stat_activity sample', list: sorted(probes.database), target: false }]
      : []),
  ];
  console.table(
    rows.map(({ what, list, target }) => {
      const p99 = percentile(list, 99);
      return {
        latency: what,
        samples: list.length,
        'p50 ms': ms(percentile(list, 50)),
        'p95 ms': ms(percentile(list, 95)),
        'p99 ms': ms(p99),
        'max ms': ms(list.at(-1) ?? 0),
        target: target ? `p99 < ${TARGET_P99_MS} ms` : '—',
        result: target ? (p99 < TARGET_P99_MS && list.length > 0 ? 'pass' : 'miss') : '',
      };
    }),
  );
  // When the slow ones were sent: the delivery p99 of each second of the measured part.
  const bySecond: number[][] = Array.from({ length: Math.ceil(seconds) }, () => []);
  for (let n = warmUpCount; n < sent; n++) {
    if (!deliveredAt[n]) continue;
    const second = Math.min(bySecond.length - 1, Math.floor(((sentAt[n] as number) - measuredFrom) / 1000));
    bySecond[second]?.push((deliveredAt[n] as number) - (sentAt[n] as number));
  }
  console.log(
    `  delivery p99 of each second (ms): ${bySecond.map((list) => Math.round(percentile(sorted(list), 99))).join(' ')}`,
  );
  if (probes && pgUrl) {
    const waited = probes.lockWaits.filter((n) => n > 0).length;
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
    console.log(
      `  PostgreSQL every 100 ms: statements waiting on a lock in ${Math.round((100 * waited) / Math.max(1, probes.lockWaits.length))} % ` +
        `of ${probes.lockWaits.length} samples (at most ${Math.max(0, ...probes.lockWaits)} at once); ` +
        `active statements ${mean(probes.active).toFixed(1)} on average, at most ${Math.max(0, ...probes.active)}`,
    );
    const [query, times] = [...probes.waiters].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (query) console.log(`  the statement seen waiting most (${times} times): ${query.replace(/\s+/g, ' ')}`);
  }
  const errors = [...errorCodes].map(([code, n]) => `${code}×${n}`).join(', ') || 'none';
  const closed = [...closes].map(([code, n]) => `${code}×${n}`).join(', ') || 'none';
  const storedMatches = stored.length === acknowledged && storedIds.size === stored.length;
  console.table([
    { count: 'sent (warm-up included)', value: sent, target: '', result: '' },
    { count: 'acknowledged (message_sent)', value: acknowledged, target: '', result: '' },
    { count: `delivered within ${DRAIN_MS / 1000} s after the run`, value: delivered, target: '', result: '' },
    { count: 'not delivered, but stored', value: undelivered - lost, target: '', result: '' },
    { count: 'lost (neither delivered nor stored)', value: lost, target: '0', result: lost === 0 ? 'pass' : 'miss' },
    {
      count: 'stored rows (distinct clientIds)',
      value: `${stored.length} (${storedIds.size})`,
      target: `= acknowledged`,
      result: storedMatches ? 'pass' : 'miss',
    },
    { count: 'stored rows marked delivered', value: markedDelivered, target: '', result: '' },
    { count: 'delivered twice / to the wrong socket', value: `${duplicates} / ${misrouted}`, target: '', result: '' },
    {
      count: 'not written: the socket had closed',
      value: unwritten,
      target: '0',
      result: unwritten === 0 ? 'pass' : 'miss',
    },
  ]);
  console.log(`  error frames: ${errors}; sockets closed during the run: ${closed}`);
  if (lost > 0 || !storedMatches || unwritten > 0 || closes.size > 0) process.exitCode = 1;
} finally {
  // Sockets first: a server that stops with them open logs a presence change it can no longer publish.
  for (const ws of sockets) ws?.terminate();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await Promise.all(servers.map((server) => server.stop()));
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}
