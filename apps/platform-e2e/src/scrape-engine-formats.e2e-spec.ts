import Firecrawl from '@mendable/firecrawl-js';

import { SCRAPE_SITE, type ScrapeSite, startScrapeSite } from '@quarry/testing';

import { type ApiResponse, call } from './support/api-client';
import type { Platform } from './support/platform';
import { type Body, MODES } from './support/scrape-engine-support';
import { createTeamKey, holdBrowserSlot, teamCredits } from './support/teams';

/**
 * The scrape engine end to end (support/scrape-engine-support.ts), continued from
 * scrape-engine.e2e-spec.ts: formats, cache and index, the official SDK, profiles and concurrency.
 */
describe.each(MODES)('scrape engine %s', (_mode, start) => {
  let site: ScrapeSite;
  let platform: Platform;
  const scrape = (body: Record<string, unknown>, apiKey = platform.apiKey): Promise<ApiResponse<Body>> =>
    call<Body>(platform.url(), 'POST', '/v2/scrape', { apiKey, body });

  beforeAll(async () => {
    site = await startScrapeSite();
    platform = await start();
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  describe('formats', () => {
    it('extracts products with variants from JSON-LD, and null where there is none', async () => {
      const response = await scrape({ url: `${site.url}/product`, formats: ['product'], maxAge: 0 });
      const product = response.body.data.product;
      expect(product).toMatchObject({
        title: 'Trail Runner 2',
        brand: 'Peakfoot',
        category: 'Shoes > Trail',
        url: `${site.url}/product`,
      });
      expect(product.variants).toEqual([
        expect.objectContaining({
          sku: 'TR2-RED-42',
          values: { color: 'Red', size: '42' },
          price: expect.objectContaining({ amount: 89.9, currency: 'EUR' }),
          sale: { originalPrice: expect.objectContaining({ amount: 119.9 }) },
          availability: { inStock: true, text: 'In stock' },
          images: [{ url: `${site.url}/img/red.jpg` }],
        }),
        expect.objectContaining({
          sku: 'TR2-BLU-43',
          availability: { inStock: false, text: 'Out of stock' },
        }),
      ]);
      const none = await scrape({
        url: `${site.url}/static`,
        formats: ['markdown', 'product', 'menu'],
        maxAge: 0,
      });
      expect(none.body.data.product).toBeNull();
      expect(none.body.data.menu).toBeNull();
    });

    it('extracts menus from schema.org data and from the page layout', async () => {
      const structured = await scrape({ url: `${site.url}/menu`, formats: ['menu'], maxAge: 0 });
      expect(structured.body.data.menu).toMatchObject({
        isMenu: true,
        merchant: { name: 'Trattoria Roma', type: 'Restaurant' },
        currency: 'EUR',
      });
      expect(structured.body.data.menu.sections.map((section: Body) => section.name)).toEqual([
        'Antipasti',
        'Pasta',
      ]);
      expect(structured.body.data.menu.sections[0].items[0]).toMatchObject({
        name: 'Bruschetta',
        price: { amount: 7.5, currency: 'EUR' },
        dietary: ['vegan'],
      });
      const layout = await scrape({ url: `${site.url}/menu-dom`, formats: ['menu'], maxAge: 0 });
      expect(layout.body.data.menu.currency).toBe('GBP');
      expect(layout.body.data.menu.sections.map((section: Body) => section.items.length)).toEqual([2, 2]);
    });

    it('reads branding in the browser', async () => {
      const response = await scrape({ url: `${site.url}/branding`, formats: ['branding'], maxAge: 0 });
      expect(response.body.data.branding).toMatchObject({
        colorScheme: 'light',
        logo: `${site.url}/images/logo.svg`,
        colors: { primary: '#FF5A1F', background: '#FFFFFF', link: '#2563EB' },
        images: { favicon: `${site.url}/favicon.ico`, ogImage: `${site.url}/images/og.png` },
      });
      expect(response.body.data.metadata.engine).toBe('browser');
    });

    it('tracks changes per team, URL and tag: new, same, changed with a diff, json values, removed', async () => {
      const url = `${site.url}/changing`;
      const schema = {
        type: 'object',
        properties: { price: { type: 'number' }, name: { type: 'string' }, mood: { type: 'string' } },
      };
      const format = { type: 'changeTracking', modes: ['git-diff', 'json'], schema, tag: null };
      const withPrice = (price: number, text: string) =>
        `<h1>Lamp</h1><p>${text}</p><script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"price":"${price}","priceCurrency":"EUR"}}</script>`;
      site.changing.body = withPrice(10, 'The first version of this page.');
      site.changing.status = 200;
      const first = await scrape({ url, formats: ['markdown', format] });
      expect(first.body.data.changeTracking).toMatchObject({
        changeStatus: 'new',
        previousScrapeAt: null,
        visibility: 'visible',
        diff: null,
        json: null,
      });

      const same = await scrape({ url, formats: ['markdown', format] });
      expect(same.body.data.changeTracking).toMatchObject({ changeStatus: 'same', diff: null });
      expect(Date.parse(same.body.data.changeTracking.previousScrapeAt)).toBeGreaterThan(
        Date.now() - 120_000,
      );

      site.changing.body = withPrice(12, 'The second version of this page.');
      const changed = await scrape({ url, formats: ['markdown', format] });
      const tracking = changed.body.data.changeTracking;
      expect(tracking.changeStatus).toBe('changed');
      expect(tracking.diff).toContain('-The first version of this page.');
      expect(tracking.diff).toContain('+The second version of this page.');
      expect(tracking.diff).toMatch(/^diff --git a\//);
      expect(tracking.json).toEqual({
        price: { previous: 10, current: 12 },
        name: { previous: 'Lamp', current: 'Lamp' },
      });
      expect(changed.body.data.warning).toMatch(/mood could not be read .* language model/);

      const taggedA = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'A' }] });
      const taggedB = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'B' }] });
      const taggedAgain = await scrape({ url, formats: ['markdown', { type: 'changeTracking', tag: 'A' }] });
      expect(
        [taggedA, taggedB, taggedAgain].map((response) => response.body.data.changeTracking.changeStatus),
      ).toEqual(['new', 'new', 'same']);

      const otherTeam = await createTeamKey(platform);
      const isolated = await scrape({ url, formats: ['markdown', format] }, otherTeam.apiKey);
      expect(isolated.body.data.changeTracking.changeStatus).toBe('new');

      site.changing.status = 404;
      const removed = await scrape({ url, formats: ['markdown', format] });
      expect(removed.body.data.changeTracking.changeStatus).toBe('removed');
      site.changing.status = 200;
      const back = await scrape({ url, formats: ['markdown', format] });
      expect(back.body.data.changeTracking.changeStatus).toBe('new');
    });
  });

  describe('cache and index', () => {
    it('answers a repeated scrape from the cache at the gateway, without contacting the target', async () => {
      const url = `${site.url}/static?cache=${Date.now()}`;
      const first = await scrape({ url });
      expect(first.body.data.metadata.cacheState).toBe('miss');
      const hitsBefore = site.hits.get('/static');
      const started = Date.now();
      const second = await scrape({ url });
      const elapsed = Date.now() - started;
      expect(second.status).toBe(200);
      expect(second.body.data.metadata).toMatchObject({ cacheState: 'hit', sourceURL: url, creditsUsed: 1 });
      expect(Date.parse(second.body.data.metadata.cachedAt)).toBeLessThanOrEqual(Date.now());
      expect(second.body.data.metadata.scrapeId).not.toBe(first.body.data.metadata.scrapeId);
      expect(second.body.data.markdown).toBe(first.body.data.markdown);
      expect(site.hits.get('/static')).toBe(hitsBefore);
      expect(elapsed).toBeLessThan(1_000);
      const byId = await call<Body>(
        platform.url(),
        'GET',
        `/v2/scrape/${second.body.data.metadata.scrapeId}`,
        { apiKey: platform.apiKey },
      );
      expect(byId.body.data.metadata.cacheState).toBe('hit');

      // options that change the content are part of the key; maxAge 0 always scrapes
      const otherOptions = await scrape({ url, onlyMainContent: false });
      expect(otherOptions.body.data.metadata.cacheState).toBe('miss');
      const fresh = await scrape({ url, maxAge: 0 });
      expect(fresh.body.data.metadata.cacheState).toBe('miss');
      // another team never sees this team's cache
      const otherTeam = await createTeamKey(platform);
      const isolated = await scrape({ url }, otherTeam.apiKey);
      expect(isolated.body.data.metadata.cacheState).toBe('miss');
    });

    it('never stores requests with headers, actions or storeInCache false', async () => {
      const url = `${site.url}/static?sensitive=${Date.now()}`;
      await scrape({ url, headers: { 'x-probe': 'secret' } });
      await scrape({ url, storeInCache: false });
      const probe = await scrape({ url, minAge: 1 });
      expect(probe.status).toBe(404);
      expect(probe.body).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });

      // actions force storeInCache off: the same request twice reaches the target twice
      const withActions = {
        url: `${site.url}/static?actions=${Date.now()}`,
        actions: [{ type: 'wait', milliseconds: 1 }],
      };
      const first = await scrape(withActions);
      const hitsBetween = site.hits.get('/static') ?? 0;
      const second = await scrape(withActions);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.data.metadata.cacheState).toBe('miss');
      expect(site.hits.get('/static') ?? 0).toBeGreaterThan(hitsBetween);
      const stored = await scrape({ url: withActions.url, minAge: 1 });
      expect(stored.status).toBe(404);
    });

    it('answers minAge from the cache only: 404 SCRAPE_NO_CACHED_DATA on a miss', async () => {
      const url = `${site.url}/static?minage=${Date.now()}`;
      const hitsBefore = site.hits.get('/static') ?? 0;
      const miss = await scrape({ url, minAge: 1 });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
      expect(site.hits.get('/static') ?? 0).toBe(hitsBefore);
      await scrape({ url });
      const hit = await scrape({ url, minAge: 1 });
      expect(hit.body.data.metadata.cacheState).toBe('hit');
      const tooYoung = await scrape({ url, minAge: 3_600_000 });
      expect(tooYoung.status).toBe(404);
    });

    it('answers lockdown from the cache only, never contacting the target, billing 5 on a hit and 1 on a miss', async () => {
      const url = `${site.url}/static?lockdown=${Date.now()}`;
      const hitsBefore = site.hits.get('/static') ?? 0;
      const creditsBefore = await teamCredits(platform);
      const miss = await scrape({ url, lockdown: true });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(site.hits.get('/static') ?? 0).toBe(hitsBefore);
      expect(await teamCredits(platform)).toBe(creditsBefore - 1);

      await scrape({ url });
      const afterScrape = await teamCredits(platform);
      const hit = await scrape({ url, lockdown: true });
      expect(hit.status).toBe(200);
      expect(hit.body.data.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 5 });
      expect(await teamCredits(platform)).toBe(afterScrape - 5);
      expect(site.hits.get('/static')).toBe(hitsBefore + 1);
    });
    it('combines lockdown with minAge and with changeTracking, from the cache only', async () => {
      const url = `${site.url}/static?lockdown-minage=${Date.now()}`;
      const miss = await scrape({ url, lockdown: true, minAge: 1 });
      expect(miss.status).toBe(404);
      expect(miss.body).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      await scrape({ url });
      const hitsBefore = site.hits.get('/static') ?? 0;
      const tooYoung = await scrape({ url, lockdown: true, minAge: 3_600_000 });
      expect(tooYoung.status).toBe(404);
      expect(tooYoung.body.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
      const hit = await scrape({ url, lockdown: true, minAge: 1 });
      expect(hit.status).toBe(200);
      expect(hit.body.data.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 5 });

      const tracked = `${site.url}/static?lockdown-tracking=${Date.now()}`;
      const formats = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];
      const first = await scrape({ url: tracked, formats });
      expect(first.body.data.changeTracking.changeStatus).toBe('new');
      await scrape({ url: tracked });
      const fromCache = await scrape({ url: tracked, formats, lockdown: true });
      expect(fromCache.status).toBe(200);
      expect(fromCache.body.data.metadata.cacheState).toBe('hit');
      expect(fromCache.body.data.changeTracking).toEqual({
        previousScrapeAt: expect.any(String),
        changeStatus: 'same',
        visibility: 'visible',
        diff: null,
      });
      expect(site.hits.get('/static')).toBe(hitsBefore + 2);
    });
  });

  describe('official SDK', () => {
    it('scrapes with actions, a screenshot and change tracking through @mendable/firecrawl-js, and raises the cache-only 404s', async () => {
      const sdk = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.url() });
      const document = await sdk.scrape(`${site.url}/actions`, {
        formats: ['markdown', 'screenshot', { type: 'changeTracking', modes: ['git-diff'] }],
        actions: [
          { type: 'click', selector: '#reveal' },
          { type: 'executeJavascript', script: 'document.title' },
        ],
        onlyMainContent: false,
      });
      expect(document.markdown).toContain(SCRAPE_SITE.clickMarker);
      expect(document.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'Actions' }]);
      expect(document.screenshot).toContain('/v2/blobs/screenshots/');
      expect(document.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
      expect(document.metadata?.engine).toBe('browser');

      await expect(
        sdk.scrape(`${site.url}/static?sdk-lockdown=${Date.now()}`, { lockdown: true }),
      ).rejects.toMatchObject({ status: 404, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      await expect(
        sdk.scrape(`${site.url}/static?sdk-minage=${Date.now()}`, { minAge: 1 }),
      ).rejects.toMatchObject({ status: 404, code: 'SCRAPE_NO_CACHED_DATA' });
    });
  });

  describe('profiles and concurrency', () => {
    it('keeps cookies and localStorage in a named profile; contexts are otherwise isolated', async () => {
      const name = `shop-${Date.now()}`;
      const saved = await scrape({ url: `${site.url}/cookies/set`, profile: { name } });
      expect(saved.status).toBe(200);
      const loaded = await scrape({
        url: `${site.url}/cookies/show`,
        profile: { name, saveChanges: false },
        onlyMainContent: false,
      });
      expect(loaded.body.data.markdown).toContain('cookie=session=profile-cookie-value');
      expect(loaded.body.data.markdown).toContain('storage=stored-in-local-storage');
      const anonymous = await scrape({
        url: `${site.url}/cookies/show`,
        waitFor: 1,
        onlyMainContent: false,
        maxAge: 0,
      });
      expect(anonymous.body.data.markdown).toContain('cookie=none');
      expect(anonymous.body.data.markdown).toContain('storage=none');
      const otherTeam = await createTeamKey(platform);
      const foreign = await scrape(
        { url: `${site.url}/cookies/show`, profile: { name, saveChanges: false }, onlyMainContent: false },
        otherTeam.apiKey,
      );
      expect(foreign.body.data.markdown).toContain('cookie=none');
    });

    it('allows one saving session per profile at a time (409)', async () => {
      const name = `busy-${Date.now()}`;
      const first = scrape({ url: `${site.url}/static`, profile: { name }, waitFor: 2_500 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const second = await scrape({ url: `${site.url}/static`, profile: { name } });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        success: false,
        error: 'Conflict',
        code: 'SCRAPE_PROFILE_LOCKED',
        details: { message: expect.stringContaining(`Profile "${name}" is being saved by another session`) },
      });
      const reader = await scrape({ url: `${site.url}/static`, profile: { name, saveChanges: false } });
      expect(reader.status).toBe(200);
      expect((await first).status).toBe(200);
      const after = await scrape({ url: `${site.url}/static`, profile: { name } });
      expect(after.status).toBe(200);
    });

    it('queues browser scrapes over the team limit and reports it, or answers 429 when the wait would exceed the timeout', async () => {
      const team = await createTeamKey(platform, { concurrency: 1 });
      const slowBody = { url: `${site.url}/static`, waitFor: 2_000, maxAge: 0 };
      let a: ApiResponse<Body>;
      let b: ApiResponse<Body>;
      if (platform.database) {
        // Through Kafka, a worker takes its next job only once its current fetch is done, so two
        // requests may meet on one worker one after the other: the slot is held as another worker would.
        const release = await holdBrowserSlot(platform, team.name, 60_000);
        setTimeout(() => void release(), 2_500);
        a = await scrape({ ...slowBody, waitFor: 1 }, team.apiKey);
        b = await scrape({ ...slowBody, waitFor: 1 }, team.apiKey);
      } else {
        [a, b] = await Promise.all([scrape(slowBody, team.apiKey), scrape(slowBody, team.apiKey)]);
      }
      expect([a.status, b.status]).toEqual([200, 200]);
      const limited = [a, b]
        .map((response) => response.body.data.metadata)
        .filter((metadata) => metadata.concurrencyLimited);
      expect(limited).toHaveLength(1);
      expect(limited[0].concurrencyQueueDurationMs).toBeGreaterThan(1_000);
      const free = [a, b]
        .map((response) => response.body.data.metadata)
        .find((metadata) => !metadata.concurrencyLimited);
      expect(free.concurrencyQueueDurationMs).toBeUndefined();

      const long = platform.database
        ? holdBrowserSlot(platform, team.name, 10_000).then(async (release) => ({ release }))
        : scrape({ url: `${site.url}/static`, waitFor: 5_000, timeout: 20_000, maxAge: 0 }, team.apiKey).then(
            (response) => ({ response }),
          );
      await new Promise((resolve) => setTimeout(resolve, 800));
      // The rejected job would save a profile: it never opened it, and its end frees the lock.
      const lockName = `rejected-${Date.now()}`;
      const rejected = await scrape(
        { url: `${site.url}/static`, waitFor: 1, timeout: 2_000, maxAge: 0, profile: { name: lockName } },
        team.apiKey,
      );
      expect(rejected.status).toBe(429);
      expect(rejected.body).toMatchObject({ success: false, error: 'Concurrency limit reached' });
      // The worker's Retry-After reaches the client through the job event.
      expect(rejected.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const held = await long;
      if ('release' in held) await held.release();
      else expect(held.response.status).toBe(200);
      const saver = await scrape(
        { url: `${site.url}/static`, profile: { name: lockName }, maxAge: 0 },
        team.apiKey,
      );
      expect(saver.status).toBe(200);
    });
  });
});
