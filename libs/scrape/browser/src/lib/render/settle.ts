import type { Page } from 'puppeteer-core';
import type { PageGlobals } from './in-page.types';

const QUIET_MS = 200;

/**
 * The automatic wait after `load` (what `waitFor` is added to): until no request has been in
 * flight and the DOM has not changed for 200 ms, at most `maxMs`. Pages that poll forever simply
 * use up the cap.
 */
export async function settle(page: Page, maxMs: number): Promise<void> {
  if (maxMs <= 0) return;
  await Promise.all([
    page.waitForNetworkIdle({ idleTime: QUIET_MS, concurrency: 0, timeout: maxMs }).catch(() => undefined),
    page.evaluate(domQuiet, QUIET_MS, maxMs).catch(() => undefined),
  ]);
}

/** In the page: resolves once the DOM stayed unchanged for `quietMs`, or after `maxMs`. */
function domQuiet(quietMs: number, maxMs: number): Promise<void> {
  const { document, MutationObserver, setTimeout, performance } = globalThis as unknown as PageGlobals;
  return new Promise<void>((resolve) => {
    const started = performance.now();
    let last = started;
    const observer = new MutationObserver(() => (last = performance.now()));
    observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
    const check = () => {
      const now = performance.now();
      if (now - last >= quietMs || now - started >= maxMs) {
        observer.disconnect();
        resolve();
      } else setTimeout(check, Math.min(50, quietMs));
    };
    setTimeout(check, quietMs);
  });
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
