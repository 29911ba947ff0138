import type { Page } from 'puppeteer-core';

import type { PageGlobals } from './in-page.types';

const QUIET_MS = 80;
/** Timers up to this delay are content the page is about to show (longer ones are carousels, polling, idle work). */
const SHORT_TIMER_MS = 2_000;
/** A timer set from a timer callback set from a timer callback… is a loop, not a one-off render. */
const MAX_TIMER_CHAIN = 2;

/** What the probe keeps in the page (a non-enumerable global). */
interface SettleProbe {
  /** Pending short one-shot timers: id → due time (performance.now()). */
  timers: Map<unknown, number>;
  /** fetch and XMLHttpRequest calls in flight. */
  requests: number;
  /** The page's original setTimeout (the wait's own checks are not the page's work). */
  schedule: (callback: () => void, ms: number) => unknown;
}

/**
 * Installed before navigation: lets the automatic wait see work the page has scheduled but not
 * done yet — short `setTimeout`s (not intervals, not loops) and fetch/XHR in flight — so content a
 * script adds after a timer or a request is waited for by evidence instead of by `waitFor`.
 */
export async function installSettleProbe(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(settleProbe, SHORT_TIMER_MS, MAX_TIMER_CHAIN);
}

/** In the page, before any of its scripts. Wrapped functions keep their native `toString`. */
function settleProbe(shortMs: number, maxChain: number): void {
  /* eslint-disable @typescript-eslint/no-explicit-any -- in-page code patching the page's own globals */
  const g = globalThis as any;
  if (g.__quarrySettle) return;
  const setTimeoutOriginal = g.setTimeout;
  const clearTimeoutOriginal = g.clearTimeout;
  const probe: SettleProbe = {
    timers: new Map(),
    requests: 0,
    schedule: (callback, ms) => setTimeoutOriginal.call(g, callback, ms),
  };
  Object.defineProperty(g, '__quarrySettle', { value: probe, enumerable: false });
  const native = (wrapper: any, original: any) => {
    const text = Function.prototype.toString.call(original);
    Object.defineProperty(wrapper, 'toString', { value: () => text, enumerable: false });
    return wrapper;
  };
  let depth = 0;
  g.setTimeout = native(function (this: unknown, handler: unknown, delay?: number, ...args: unknown[]) {
    if (typeof handler !== 'function') return setTimeoutOriginal.call(g, handler, delay, ...args);
    const ms = Math.max(0, Number(delay) || 0);
    const chain = depth + 1;
    const run = function (this: unknown) {
      probe.timers.delete(id);
      const previous = depth;
      depth = chain;
      try {
        return (handler as (...values: unknown[]) => unknown).apply(this, args);
      } finally {
        depth = previous;
      }
    };
    // `run` reads `id` only when the timer fires, after this line.
    const id: unknown = setTimeoutOriginal.call(g, run, delay);
    if (ms <= shortMs && chain <= maxChain) probe.timers.set(id, g.performance.now() + ms);
    return id;
  }, setTimeoutOriginal);
  g.clearTimeout = native(function (id: unknown) {
    probe.timers.delete(id);
    return clearTimeoutOriginal.call(g, id);
  }, clearTimeoutOriginal);
  const fetchOriginal = g.fetch;
  if (typeof fetchOriginal === 'function') {
    g.fetch = native(function (this: unknown, ...args: unknown[]) {
      probe.requests += 1;
      const done = () => void (probe.requests = Math.max(0, probe.requests - 1));
      const result = fetchOriginal.apply(this, args);
      Promise.resolve(result).then(done, done);
      return result;
    }, fetchOriginal);
  }
  const xhr = g.XMLHttpRequest?.prototype;
  if (xhr?.send) {
    const sendOriginal = xhr.send;
    xhr.send = native(function (this: any, ...args: unknown[]) {
      probe.requests += 1;
      this.addEventListener('loadend', () => void (probe.requests = Math.max(0, probe.requests - 1)), {
        once: true,
      });
      return sendOriginal.apply(this, args);
    }, sendOriginal);
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

/**
 * The automatic wait after `load` (what `waitFor` is added to): until no request has been in
 * flight, the DOM has not changed for 80 ms (`QUIET_MS`) and no short timer the page set is still pending (see
 * `installSettleProbe`), at most `maxMs`. Pages that poll forever simply use up the cap.
 */
export async function settle(page: Page, maxMs: number): Promise<void> {
  if (maxMs <= 0) return;
  await Promise.all([
    page.waitForNetworkIdle({ idleTime: QUIET_MS, concurrency: 0, timeout: maxMs }).catch(() => undefined),
    page.evaluate(domQuiet, QUIET_MS, maxMs).catch(() => undefined),
  ]);
}

/**
 * In the page: resolves once the DOM stayed unchanged for `quietMs` with no pending short timer
 * due before the cap and no request in flight (when the probe is installed), or after `maxMs`.
 */
function domQuiet(quietMs: number, maxMs: number): Promise<void> {
  const { document, MutationObserver, setTimeout, performance } = globalThis as unknown as PageGlobals;
  const probe = (globalThis as unknown as { __quarrySettle?: SettleProbe }).__quarrySettle;
  return new Promise<void>((resolve) => {
    const started = performance.now();
    const cap = started + maxMs;
    let last = started;
    const observer = new MutationObserver(() => (last = performance.now()));
    observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
    const busy = () => {
      if (!probe) return false;
      if (probe.requests > 0) return true;
      for (const due of probe.timers.values()) if (due <= cap) return true;
      return false;
    };
    const schedule = probe ? probe.schedule : setTimeout;
    const check = () => {
      const now = performance.now();
      if ((now - last >= quietMs && !busy()) || now - started >= maxMs) {
        observer.disconnect();
        resolve();
      } else schedule(check, Math.min(50, quietMs));
    };
    schedule(check, quietMs);
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
