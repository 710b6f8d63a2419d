// A progress display for long command-line tasks: a redrawn bar on a terminal, plain lines in a log.

export interface ProgressUpdate {
  label: string;
  done: number;
  total: number;
  unit: 'bytes' | 'items';
}

export interface ProgressOutput {
  write: (text: string) => unknown;
  isTTY?: boolean;
}

/** 12345678 → "12 345 678". */
export const groupDigits = (n: number): string => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** Both sizes in the unit that suits the total: "12.5/980.0 KB", "612.3/1 150.0 MB", "1.20/3.45 GB". */
export function formatSizes(done: number, total: number): string {
  const [divisor, unit, digits] =
    total >= 1024 ** 3 ? [1024 ** 3, 'GB', 2] : total >= 1024 ** 2 ? [1024 ** 2, 'MB', 1] : [1024, 'KB', 1];
  const format = (n: number) => {
    const [whole = '0', fraction = ''] = (n / divisor).toFixed(digits).split('.');
    return `${groupDigits(Number(whole))}.${fraction}`;
  };
  return `${format(done)}/${format(total)} ${unit}`;
}

/** `[#####.....]  53% games 12 345/23 456`, or with sizes for byte counts. */
export function formatProgress(p: ProgressUpdate, width = 10): string {
  const ratio = p.total > 0 ? Math.min(1, Math.max(0, p.done / p.total)) : 1;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  const amount = p.unit === 'bytes' ? formatSizes(p.done, p.total) : `${groupDigits(p.done)}/${groupDigits(p.total)}`;
  return `[${bar}] ${percent} ${p.label} ${amount}`;
}

/**
 * On a terminal: one line redrawn at most every `ttyIntervalMs`, left in place when its step completes.
 * Elsewhere: a plain line every `logIntervalMs` and one when a step completes.
 */
export function createProgressBar(
  out: ProgressOutput,
  options: { ttyIntervalMs?: number; logIntervalMs?: number; clock?: () => number } = {},
) {
  const tty = out.isTTY === true;
  const interval = tty ? (options.ttyIntervalMs ?? 100) : (options.logIntervalMs ?? 5000);
  const clock = options.clock ?? Date.now;
  let last = -Infinity;
  let open = false; // a terminal line is drawn and not yet ended
  const completed = new Set<string>();

  const update = (p: ProgressUpdate) => {
    if (completed.has(p.label)) return;
    const complete = p.done >= p.total;
    const now = clock();
    if (!complete && now - last < interval) return;
    last = now;
    if (complete) completed.add(p.label);
    if (tty) {
      out.write(`\r${formatProgress(p)}\x1b[K${complete ? '\n' : ''}`);
      open = !complete;
    } else {
      out.write(`${formatProgress(p)}\n`);
    }
  };
  /** Ends a terminal line left open (after a failure, say). */
  const finish = () => {
    if (open) out.write('\n');
    open = false;
  };
  return { update, finish };
}
