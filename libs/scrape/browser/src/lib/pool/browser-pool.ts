import type { Logger } from 'pino';
import { Cluster } from 'puppeteer-cluster';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';

import type { AddressPolicy } from '@quarry/platform/net';

import type { HostLookup } from '../guard/host-resolver';
import { isolatedContextConcurrency, type PageSlot, slotOf } from './isolated-context.concurrency';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Pages rendered at once by this process. */
  concurrency: number;
  policy: AddressPolicy;
  lookup?: HostLookup;
  maxTransferBytes: number;
  logger?: Logger;
  /** Extra Chromium switches (tests). */
  args?: string[];
  /** Called after the browser was relaunched (crash recovery). */
  onRestart?: () => void;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-sync',
  '--disable-quic',
  '--disable-breakpad',
  '--no-first-run',
  '--no-default-browser-check',
  '--mute-audio',
  '--hide-scrollbars',
  // TLS is verified by the guard proxy when the request asks for it (skipTlsVerification: false).
  '--ignore-certificate-errors',
  // WebRTC must not open UDP sockets around the guard proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,DialMediaRouteProvider,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater',
];

/** Longer than any job may run (spec max timeout 300 s): jobs end themselves through their signal. */
const TASK_TIMEOUT_MS = 330_000;
const PROTOCOL_TIMEOUT_MS = 60_000;

export class BrowserAbortedError extends Error {
  constructor() {
    super('the job was aborted before the browser could start it');
    this.name = 'AbortError';
  }
}

/**
 * The scrape worker's Chromium: one browser process shared by a bounded number of concurrent jobs
 * (puppeteer-cluster), each in its own incognito context behind its own guard proxy. A crashed or
 * killed browser is relaunched on the next job.
 */
export class BrowserPool {
  private launches = 0;
  private browser?: Browser;
  private running = 0;
  private version = '';
  private agent = '';

  private constructor(
    private readonly cluster: Cluster<unknown, unknown>,
    readonly concurrency: number,
  ) {}

  static async launch(options: BrowserPoolOptions): Promise<BrowserPool> {
    const launched: { pool?: BrowserPool } = {};
    const pending: Browser[] = [];
    // Wraps puppeteer so every (re)launch is seen: restarts are counted and logged.
    const launcher = {
      launch: async (launchOptions: LaunchOptions) => {
        const browser = await puppeteer.launch(launchOptions);
        if (launched.pool) {
          launched.pool.adopt(browser, options.logger);
          options.onRestart?.();
        } else pending.push(browser);
        return browser;
      },
    };
    const cluster = await Cluster.launch({
      concurrency: isolatedContextConcurrency({
        policy: options.policy,
        lookup: options.lookup,
        maxTransferBytes: options.maxTransferBytes,
      }),
      maxConcurrency: options.concurrency,
      timeout: TASK_TIMEOUT_MS,
      retryLimit: 0,
      puppeteer: launcher,
      puppeteerOptions: {
        executablePath: options.executablePath,
        headless: true,
        // DevTools over a pipe rather than a port: when the owning process dies — however it dies,
        // kill -9 included — the pipe closes and Chromium exits with its whole process tree.
        pipe: true,
        args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        // No single DevTools call may hang a slot (a wedged renderer); jobs end through their signal.
        protocolTimeout: PROTOCOL_TIMEOUT_MS,
      } as LaunchOptions as never,
    });
    const pool = new BrowserPool(cluster as Cluster<unknown, unknown>, options.concurrency);
    launched.pool = pool;
    for (const browser of pending) pool.adopt(browser, options.logger);
    if (pool.browser) {
      pool.version = await pool.browser.version();
      pool.agent = await pool.browser.userAgent();
    }
    return pool;
  }

  /** Number of (re)launches after the first one. */
  get restarts(): number {
    return Math.max(0, this.launches - 1);
  }

  get active(): number {
    return this.running;
  }

  get connected(): boolean {
    return this.browser?.connected ?? false;
  }

  /** PID of the current Chromium process (tests kill it to prove recovery). */
  get processId(): number | undefined {
    return this.browser?.process()?.pid;
  }

  /** `Chrome/156.0.…` of the launched browser. */
  get browserVersion(): string {
    return this.version;
  }

  /**
   * The running Chromium when it is connected: interact sessions open their own long-lived
   * contexts in it (openSlot), outside the cluster's per-job slots.
   */
  get chromium(): Browser | undefined {
    return this.browser?.connected ? this.browser : undefined;
  }

  /** The browser's own user agent (headless marker included). */
  get userAgent(): string {
    return this.agent;
  }

  /**
   * Runs `task` in a fresh incognito context once a slot is free. When `signal` aborts, the context
   * is closed at once, so every pending browser call of the task fails fast.
   */
  async run<T>(signal: AbortSignal, task: (slot: PageSlot) => Promise<T>): Promise<T> {
    if (signal.aborted) throw new BrowserAbortedError();
    const result = await this.cluster.execute(undefined, async ({ page }) => {
      if (signal.aborted) throw new BrowserAbortedError();
      const slot = slotOf(page as unknown as PageSlot['page']);
      const onAbort = () => void slot.page.close().catch(() => undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.running += 1;
      try {
        return await task(slot);
      } finally {
        this.running -= 1;
        signal.removeEventListener('abort', onAbort);
      }
    });
    return result as T;
  }

  async close(): Promise<void> {
    await this.cluster.close();
  }

  private adopt(browser: Browser, logger?: Logger): void {
    this.launches += 1;
    this.browser = browser;
    if (this.launches > 1)
      logger?.warn({ restarts: this.restarts, pid: browser.process()?.pid }, 'browser relaunched');
    browser.once('disconnected', () => {
      if (this.browser === browser)
        logger?.warn(
          { pid: browser.process()?.pid },
          'browser disconnected; it is relaunched on the next job',
        );
    });
  }
}
