import { InlineContentTransformer, WorkerContentTransformer } from '@quarry/scrape/content';

import { extractProduct } from '../extractors/product.extractor';
import { PAGE_TASKS, PAGE_WORKER_ENTRY, pageTaskRunner } from './page-tasks';

const PRODUCT = `<html><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Desk lamp</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">49.90</span>
<meta itemprop="priceCurrency" content="EUR"></div><p>Weight: 310 g</p></div></body></html>`;

/** A product page whose offers cost the extractor seconds (60,000 microdata offers). */
function manyOffers(count: number): string {
  const offer =
    '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">9.99</span><meta itemprop="priceCurrency" content="USD"></div>';
  return `<html><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Widget</h1>${offer.repeat(count)}</div></body></html>`;
}

/** The longest gap between ticks of a 10 ms timer while `work` runs: how long the event loop was held. */
async function loopHeldDuring<T>(work: Promise<T>): Promise<{ result: T | unknown; heldMs: number }> {
  let last = Date.now();
  let heldMs = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 10);
  try {
    const result = await work.catch((error: unknown) => error);
    return { result, heldMs };
  } finally {
    clearInterval(timer);
  }
}

describe('page tasks (real content worker processes)', () => {
  const workers = new WorkerContentTransformer({ workers: 1, memoryMb: 512, entry: PAGE_WORKER_ENTRY });
  afterAll(() => workers.close());

  it('answers in a worker process exactly as on the calling thread', async () => {
    const run = pageTaskRunner(workers, Date.now() + 30_000);
    const pooled = await run('product', PRODUCT, 'https://shop.test/lamp');
    expect(pooled).toMatchObject({ title: 'Desk lamp' });
    expect(pooled).toEqual(extractProduct(PRODUCT, 'https://shop.test/lamp'));
    const page = { url: 'https://shop.test/lamp', markdown: 'Weight: 310 g', html: PRODUCT };
    expect(await run('offlineAnswer', [page], 'How much does it weigh?')).toEqual(
      await pageTaskRunner(undefined, 0)('offlineAnswer', [page], 'How much does it weigh?'),
    );
    expect(await run('offlineAnswer', [page], 'How much does it weigh?')).toMatchObject({ answer: '310 g' });
  }, 60_000);

  it('kills a task at the job deadline without holding the event loop, and serves the next call', async () => {
    const hostile = manyOffers(60_000);
    const started = Date.now();
    const { result, heldMs } = await loopHeldDuring(
      pageTaskRunner(workers, Date.now() + 1_000)('product', hostile, 'https://shop.test/widget'),
    );
    expect(result).toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3_000);
    // Serializing the 8 MB page to the worker is the only work left on this thread.
    expect(heldMs).toBeLessThan(500);
    const next = await pageTaskRunner(workers, Date.now() + 30_000)(
      'product',
      PRODUCT,
      'https://shop.test/l',
    );
    expect(next).toMatchObject({ title: 'Desk lamp' });
  }, 60_000);

  it('refuses a task it does not know, in a worker and inline', async () => {
    await expect(workers.runTask('readFile', ['/etc/passwd'], Date.now() + 5_000)).rejects.toThrow(
      'unknown page task: readFile',
    );
    await expect(new InlineContentTransformer(undefined, PAGE_TASKS).runTask('toString', [])).rejects.toThrow(
      'unknown page task: toString',
    );
  }, 30_000);
});
