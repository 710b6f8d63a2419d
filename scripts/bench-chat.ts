// npm run bench:chat — private messages over /ws/chat on the built server, two cases one after the
// other: latency under load (bench-chat-latency.ts: 2 000 sockets, 200 messages/s, delivery p99, none
// lost) and members whose sockets never read (bench-chat-slow-readers.ts: the server's memory while
// 100 members send to them). BENCH_CASE=latency or BENCH_CASE=slow-readers runs one of them.
const CASES: Record<string, string> = {
  latency: './bench-chat-latency.ts',
  'slow-readers': './bench-chat-slow-readers.ts',
};

const wanted = process.env.BENCH_CASE;
if (wanted !== undefined && !(wanted in CASES)) {
  console.error(`BENCH_CASE is one of ${Object.keys(CASES).join(', ')}.`);
  process.exit(1);
}
for (const [name, file] of Object.entries(CASES)) {
  if (wanted !== undefined && wanted !== name) continue;
  console.log(`\nbench:chat — ${name}`);
  // Each case runs as its module loads, and has stopped its servers once the import resolves.
  await import(file);
}

export {};
