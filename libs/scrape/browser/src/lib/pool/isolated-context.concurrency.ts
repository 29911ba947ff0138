import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import type {
  ConcurrencyImplementationClassType,
  ResourceData,
} from 'puppeteer-cluster/dist/concurrency/ConcurrencyImplementation';
import SingleBrowserImplementation from 'puppeteer-cluster/dist/concurrency/SingleBrowserImplementation';
import { GuardProxy, type GuardProxyOptions } from '../guard/guard-proxy';
import { HostResolver } from '../guard/host-resolver';
import type { AddressPolicy } from '@quarry/platform/net';
import type { HostLookup } from '../guard/host-resolver';

/** What a job gets from the pool: a fresh incognito context, its page and the guard in front of it. */
export interface PageSlot {
  context: BrowserContext;
  page: Page;
  guard: GuardProxy;
}

export interface IsolationOptions {
  policy: AddressPolicy;
  lookup?: HostLookup;
  maxTransferBytes: number;
}

const slots = new WeakMap<Page, PageSlot>();

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
    /** One context prepared ahead, so a job does not wait for `newPage` (the costliest step). */
    private spare?: { browser: Browser; slot: Promise<PageSlot> };

    protected async createResources(): Promise<ResourceData> {
      const browser = this.browser as unknown as Browser;
      if (!browser?.connected) throw new Error('browser is not connected');
      const spare = this.spare;
      this.spare = undefined;
      let slot: PageSlot | undefined;
      if (spare && spare.browser === browser) slot = await spare.slot.catch(() => undefined);
      else if (spare) void spare.slot.then(closeSlot, () => undefined);
      if (!slot || slot.page.isClosed()) slot = await openSlot(browser, options);
      // Prepare the next job's context while this one runs.
      const next = openSlot(browser, options);
      next.catch(() => undefined);
      this.spare = { browser, slot: next };
      return { page: slot.page as unknown as ResourceData['page'], context: slot.context, guard: slot.guard };
    }

    override async close(): Promise<void> {
      const spare = this.spare;
      this.spare = undefined;
      if (spare) await spare.slot.then(closeSlot, () => undefined);
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
async function openSlot(browser: Browser, options: IsolationOptions): Promise<PageSlot> {
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

async function closeSlot(slot: PageSlot): Promise<void> {
  await slot.context.close().catch(() => undefined);
  await slot.guard.close();
}
