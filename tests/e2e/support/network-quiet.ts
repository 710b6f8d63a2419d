import type { Page, Request } from '@playwright/test';

const inFlightOf = new WeakMap<Page, Set<Request>>();

/** Starts counting the page's requests in flight; call it before the page's first navigation. */
export function trackRequests(page: Page): void {
  if (inFlightOf.has(page)) return;
  const inFlight = new Set<Request>();
  inFlightOf.set(page, inFlight);
  const done = (request: Request) => inFlight.delete(request);
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the page has had no request in flight for `quietMs`: what `networkidle` checks, without its
 * fixed 500 ms of silence, which the pages' sweeps of every route paid on each one.
 */
export async function networkQuiet(page: Page, quietMs = 150, timeoutMs = 15_000): Promise<void> {
  const inFlight = inFlightOf.get(page);
  if (!inFlight) throw new Error('networkQuiet: call trackRequests(page) before the navigation');
  const deadline = Date.now() + timeoutMs;
  let quietSince = 0;
  while (Date.now() < deadline) {
    if (inFlight.size > 0) quietSince = 0;
    else if (quietSince === 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await pause(20);
  }
  const urls = [...inFlight].map((request) => request.url()).join(', ');
  throw new Error(`networkQuiet: requests still in flight after ${timeoutMs} ms: ${urls}`);
}
