import type {
  ConcurrencyImplementationClassType,
  ResourceData,
  WorkerInstance,
} from 'puppeteer-cluster/dist/concurrency/ConcurrencyImplementation';
import SingleBrowserImplementation from 'puppeteer-cluster/dist/concurrency/SingleBrowserImplementation';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';

import type { AddressPolicy } from '@quarry/platform/net';

import { GuardProxy, type GuardProxyOptions } from '../guard/guard-proxy';
import type { HostLookup } from '../guard/host-resolver';
import { HostResolver } from '../guard/host-resolver';

/** What a job gets from the pool: a fresh incognito context, its page and the guard in front of it. */
export interface PageSlot {
  context: BrowserContext;
  page: Page;
  guard: GuardProxy;
  /**
   * Starts preparing the next job's context. The renderer calls it once navigation is done, when the
   * browser mostly waits (settle, waitFor), so the preparation does not slow this job's own setup.
   */
  prepareNext?: () => void;
}

export interface IsolationOptions {
  policy: AddressPolicy;
  lookup?: HostLookup;
  maxTransferBytes: number;
}

const slots = new WeakMap<Page, PageSlot>();

/** How long a job waits for the prepared context before opening its own (cluster limit: 5 s per creation). */
const SPARE_WAIT_MS = 1_500;
/** puppeteer-cluster's fixed limit for creating a job's resources (BROWSER_TIMEOUT), with a margin. */
const CLUSTER_CREATE_LIMIT_MS = 4_900;

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

/** The slot a pool page belongs to (the cluster hands tasks the page only). */
export function slotOf(page: Page): PageSlot {
  const slot = slots.get(page);
  if (!slot) throw new Error('page does not belong to the browser pool');
  return slot;
}

/**
 * puppeteer-cluster concurrency over one shared Chromium where every job gets its own incognito
 * browser context (no cookies, storage or cache shared between jobs), routed through its own
 * guard proxy. The base class relaunches the browser when a context cannot be created or closed
 * (a crashed or killed Chromium).
 */
export function isolatedContextConcurrency(options: IsolationOptions): ConcurrencyImplementationClassType {
  return class IsolatedContextConcurrency extends SingleBrowserImplementation {
    /** One context prepared ahead (see PageSlot.prepareNext), so a job does not wait for `newPage`. */
    private spare?: { browser: Browser; slot: Promise<PageSlot> };

    protected async createResources(): Promise<ResourceData> {
      const started = Date.now();
      const browser = this.browser as unknown as Browser;
      if (!browser?.connected) throw new Error('browser is not connected');
      const spare = this.spare;
      this.spare = undefined;
      let slot: PageSlot | undefined;
      if (spare && spare.browser === browser) {
        // Use the prepared context if it is ready soon; a straggler is closed whenever it arrives.
        slot = await Promise.race([spare.slot.catch(() => undefined), delay(SPARE_WAIT_MS)]);
        if (!slot) void spare.slot.then(closeSlot, () => undefined);
      } else if (spare) void spare.slot.then(closeSlot, () => undefined);
      if (slot?.page.isClosed()) {
        void closeSlot(slot);
        slot = undefined;
      }
      if (!slot) slot = await openSlot(browser, options);
      if (Date.now() - started >= CLUSTER_CREATE_LIMIT_MS) {
        // The cluster stopped waiting for this context: close it rather than leak it, and let it retry.
        void closeSlot(slot);
        throw new Error('creating a browser context took too long');
      }
      slot.prepareNext = () => {
        if (this.spare || !browser.connected || (this.browser as unknown as Browser) !== browser) return;
        const next = openSlot(browser, options);
        next.catch(() => undefined);
        this.spare = { browser, slot: next };
      };
      return { page: slot.page as unknown as ResourceData['page'], context: slot.context, guard: slot.guard };
    }

    /**
     * puppeteer-cluster asks for a repair (a browser relaunch) whenever creating or closing a
     * context took longer than its fixed 5 s, which on a loaded machine would kill every page in
     * flight. Only a disconnected browser is relaunched; a slow one is simply tried again.
     */
    override async workerInstance(): Promise<WorkerInstance> {
      const instance = (await super.workerInstance()) as WorkerInstance;
      return {
        ...instance,
        repair: async () => {
          if ((this.browser as unknown as Browser | null)?.connected) return;
          await instance.repair();
        },
      };
    }

    override async close(): Promise<void> {
      const spare = this.spare;
      this.spare = undefined;
      if (spare)
        await withTimeout(
          spare.slot.then(closeSlot, () => undefined),
          5_000,
        );
      await super.close();
    }

    protected async freeResources(resources: ResourceData): Promise<void> {
      const { context, guard } = resources as unknown as PageSlot;
      try {
        await context.close();
      } finally {
        await guard.close();
      }
    }
  };
}

/** A fresh incognito context routed through its own guard proxy, with one page. */
export async function openSlot(browser: Browser, options: IsolationOptions): Promise<PageSlot> {
  const guardOptions: GuardProxyOptions = {
    resolver: new HostResolver(options.policy, options.lookup),
    maxTransferBytes: options.maxTransferBytes,
  };
  const guard = await GuardProxy.start(guardOptions);
  try {
    const context = await browser.createBrowserContext({
      proxyServer: guard.url,
      // Chromium bypasses proxies for loopback by default; the guard must see those too.
      proxyBypassList: ['<-loopback>'],
      downloadBehavior: { policy: 'deny' },
    });
    const page = await context.newPage();
    const slot = { context, page, guard };
    slots.set(page, slot);
    return slot;
  } catch (error) {
    await guard.close();
    throw error;
  }
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function closeSlot(slot: PageSlot): Promise<void> {
  await slot.context.close().catch(() => undefined);
  await slot.guard.close();
}
