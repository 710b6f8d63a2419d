import { measurePageWeight } from './page-weight.ts';
const [w] = await measurePageWeight('http://127.0.0.1:4455', [process.argv[2] ?? '/galgame/14']);
console.log(w!.jsGzipBytes);
for (const s of (w as unknown as { scripts: { url: string; gzipBytes: number }[] }).scripts) console.log(s.gzipBytes, s.url);
