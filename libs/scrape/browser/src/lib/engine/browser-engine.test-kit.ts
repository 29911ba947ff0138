import { type ScrapeRequest, type ScrapeRequestInput, scrapeRequestSchema } from '@quarry/contracts';
import { AddressPolicy, GuardedHttpClient } from '@quarry/platform/net';
import { type FetchedPage, HttpEngine } from '@quarry/scrape/engine';

import { BrowserPool } from '../pool/browser-pool';
import { BrowserEngine } from './browser.engine';
import { ProxyPools } from './proxy-pools';

/** What the engine's integration specs share: one real Chromium pool, a guarded client, the engine. */
export interface BrowserEngineKit {
  pool: BrowserPool;
  client: GuardedHttpClient;
  engine: BrowserEngine;
  request(input: Partial<ScrapeRequestInput> & { url: string }): ScrapeRequest;
  fetchPage(input: Partial<ScrapeRequestInput> & { url: string }, timeoutMs?: number): Promise<FetchedPage>;
  close(): Promise<void>;
}

/**
 * Launches Chromium (`chromiumPath`) behind the address policy the specs use: 127.0.0.1 counts as
 * public; 127.0.0.2 (the "private" site), 10/8 and 169.254/16 stay private.
 */
export async function startBrowserEngineKit(settings: {
  chromiumPath: string;
  settleMs: number;
}): Promise<BrowserEngineKit> {
  const policy = new AddressPolicy(false, ['127.0.0.1']);
  const client = new GuardedHttpClient(policy, { userAgent: 'QuarryTest/1.0', maxBytes: 5 * 1024 * 1024 });
  const pool = await BrowserPool.launch({
    executablePath: settings.chromiumPath,
    concurrency: 2,
    policy,
    maxTransferBytes: 16 * 1024 * 1024,
  });
  const engine = new BrowserEngine({
    http: new HttpEngine(client),
    pool,
    proxies: new ProxyPools({ basic: [], enhanced: [] }),
    settings: { teamConcurrency: 2, settleMs: settings.settleMs, maxDocumentBytes: 5 * 1024 * 1024 },
  });
  const request = (input: Partial<ScrapeRequestInput> & { url: string }) => scrapeRequestSchema.parse(input);
  return {
    pool,
    client,
    engine,
    request,
    fetchPage: (input, timeoutMs = 30_000) =>
      engine.fetch(request(input), {
        jobId: '00000000-0000-4000-8000-000000000001',
        signal: AbortSignal.timeout(timeoutMs),
        timeoutMs,
      }),
    close: async () => {
      await pool.close();
      await client.close();
    },
  };
}
