import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type FixtureHandler, type FixtureServer, startFixtureServer } from '@quarry/testing';

import { call } from './support/api-client';
import { BrowserSession } from './support/browser';
import { type Platform, startStandalone } from './support/platform';

jest.setTimeout(240_000);

const ADMIN_KEY = `admin-${randomBytes(24).toString('hex')}`;
const HOME_MARKER = 'The console fixture greets its visitors';
const PAGES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];

const page =
  (title: string, body: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`);

/** A page answered after `ms`: a crawl of them takes long enough to watch its progress. */
const slow =
  (ms: number, handler: FixtureHandler): FixtureHandler =>
  (request, response) =>
    void setTimeout(() => handler(request, response), ms);

const until = async <T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

/**
 * The web console (apps/console) in Debian Chromium against the one-process server and a fixture
 * site: every page is screenshotted (tmp/e2e-artifacts/console) and checked with axe-core (no serious
 * or critical violation), no page error or CSP violation happens, and no key appears in any URL.
 */
describe('web console', () => {
  let platform: Platform;
  let site: FixtureServer;
  let browser: BrowserSession;
  let price = '10';
  const base = () => `${platform.url()}/console/`;

  /** Screenshot and accessibility check of the page as it is now. */
  const checkPage = async (name: string) => {
    await browser.screenshot(name);
    const violations = await browser.seriousAccessibilityViolations();
    expect({ page: name, violations }).toEqual({ page: name, violations: [] });
    expect(await browser.documentCspViolations()).toEqual([]);
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/': page(
        'Console fixture home',
        `<p>${HOME_MARKER}. Start with <a href="/alpha">the alpha page</a>, then read on.</p><ul>${PAGES.map((name) => `<li><a href="/${name}">${name}</a></li>`).join('')}</ul>`,
      ),
      ...Object.fromEntries(
        PAGES.map((name) => [
          `/${name}`,
          slow(
            800,
            page(
              `Page ${name}`,
              `<p>The ${name} page of the console fixture, with enough words to be main content.</p><a href="/">home</a>`,
            ),
          ),
        ]),
      ),
      '/prices': (request, response) =>
        page(
          'Prices',
          `<p>Basic plan: ${price} dollars per month.</p><p>Support is included in every plan.</p>`,
        )(request, response),
    });
    platform = await startStandalone({ ADMIN_API_KEY: ADMIN_KEY });
    browser = await BrowserSession.start('console');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await site?.close();
  });

  afterEach(() => {
    expect(browser.pageErrors).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });

  it('is served under /console with a strict Content-Security-Policy and cache headers', async () => {
    const response = await fetch(base());
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<style>| style=/);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${platform.url()}${script}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('signs in with an API key, keyboard only, and keeps the key out of URLs', async () => {
    await browser.page.goto(base(), { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Sign in');
    await checkPage('sign-in');
    // Tab from the top of the page to the key field, type, Enter submits
    for (let step = 0; step < 6; step += 1) {
      await browser.page.keyboard.press('Tab');
      if (
        await browser.page.evaluate(
          () => (document.activeElement as HTMLInputElement | null)?.name === 'team-key',
        )
      )
        break;
    }
    expect(await browser.page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      'team-key',
    );
    await browser.page.keyboard.type(platform.apiKey);
    await browser.page.keyboard.press('Enter');
    await browser.waitForText('h1', 'Activity');
    expect(await browser.page.evaluate(() => sessionStorage.getItem('quarry.console.session'))).toContain(
      platform.apiKey,
    );
    expect(browser.page.url()).not.toContain(platform.apiKey);
  });

  it('runs a scrape in the playground and shows its markdown beside curl, JS and Python', async () => {
    await browser.page.goto(`${base()}#/playground/scrape`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    await browser.typeInto('URL', `${site.url}/`);
    await browser.waitForText('.code-block code', `"url": "${site.url}/"`);
    await checkPage('playground-scrape-form');
    await browser.clickText('Run scrape');
    await browser.waitForText('.rendered h1', 'Console fixture home');
    await browser.waitForText('.rendered', HOME_MARKER);
    // the rendered markdown's links are real links; the snippet tabs switch with the arrow keys
    expect(
      await browser.page.$$eval('.rendered a', (links) => links.map((link) => link.getAttribute('href'))),
    ).toContain(`${site.url}/alpha`);
    await browser.page.focus('[role="tab"][aria-selected="true"]');
    await browser.page.keyboard.press('ArrowRight');
    await browser.waitForText('.code-block code', "import Firecrawl from '@mendable/firecrawl-js'");
    await browser.page.keyboard.press('ArrowRight');
    await browser.waitForText('.code-block code', 'from firecrawl import Firecrawl');
    expect(await browser.page.$eval('.playground', (element) => element.textContent ?? '')).not.toContain(
      platform.apiKey,
    );
    await checkPage('playground-scrape-result');
  });

  it('starts a crawl and watches its progress bar reach done over the WebSocket watcher', async () => {
    await browser.page.goto(`${base()}#/playground/crawl`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    await browser.typeInto('URL', `${site.url}/`);
    await browser.typeInto('Page limit', '7');
    await browser.clickText('Start crawl');
    await browser.waitForText('h1', 'Crawl job');
    // live: the watcher reports while pages are still being fetched (each takes 800 ms)
    await browser.waitForText('.progress-status', 'live via websocket', 60_000);
    await checkPage('crawl-running');
    await browser.waitForText('.progress label', 'Pages done: 7 / 7 (100 %)', 120_000);
    await browser.waitForText('.progress-status', 'completed');
    await browser.page.waitForFunction(
      () => {
        const bar = document.querySelector('progress');
        return bar?.value === 7 && bar.max === 7;
      },
      { timeout: 30_000, polling: 200 },
    );
    await browser.waitForText('#documents-title', 'Documents (7)');
    // the document viewer renders a stored page
    await browser.clickText('Page gamma');
    await browser.waitForText('.rendered', 'The gamma page of the console fixture');
    await checkPage('crawl-done');
    const sockets = browser.urls.filter((url) => url.startsWith('ws'));
    expect(sockets.some((url) => /\/v2\/crawl\/[0-9a-f-]{36}$/.test(url))).toBe(true);
  });

  it('maps, searches and batches from the playground', async () => {
    await browser.page.goto(`${base()}#/playground/map`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    await browser.typeInto('URL', `${site.url}/`);
    await browser.clickText('Run map');
    await browser.waitForText('.links', `${site.url}/zeta`);
    await checkPage('playground-map');
    // search answers from the team's own index, which the crawl above filled
    await browser.page.goto(`${base()}#/playground/search`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    await browser.typeInto('Query', 'epsilon');
    await browser.clickText('Run search');
    await browser.waitForText('.code-block code', `${site.url}/epsilon`);
    await checkPage('playground-search');
    await browser.page.goto(`${base()}#/playground/batch`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    await browser.typeInto('URLs (one per line)', `${site.url}/alpha\n${site.url}/beta`);
    await browser.clickText('Start batch');
    await browser.waitForText('h1', 'Batch scrape job');
    await browser.waitForText('.progress label', 'Pages done: 2 / 2 (100 %)', 60_000);
  });

  it('lists the jobs of every kind with status, credits and duration', async () => {
    await browser.page.goto(`${base()}#/activity`, { waitUntil: 'networkidle0' });
    await browser.waitForText('table.jobs tbody', 'Crawl');
    await browser.waitForText('table.jobs tbody', 'Scrape');
    const rows = await browser.page.$$eval('table.jobs tbody tr', (elements) =>
      elements.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim())),
    );
    expect(rows.find((row) => row[1] === 'Crawl')).toEqual([
      expect.any(String),
      'Crawl',
      `${site.url}/`,
      'completed',
      '7',
      expect.stringMatching(/s$/),
      '',
    ]);
    await checkPage('activity');
  });

  it('opens an agent run as a timeline of plan steps, tool calls and pages read', async () => {
    const started = await call<{ id: string }>(platform.url(), 'POST', '/v2/agent', {
      apiKey: platform.apiKey,
      body: { prompt: 'What does the console fixture home page say?', urls: [`${site.url}/`] },
    });
    expect(started.status).toBe(200);
    await until('the agent run', async () => {
      const status = await call<{ status: string }>(platform.url(), 'GET', `/v2/agent/${started.body.id}`, {
        apiKey: platform.apiKey,
      });
      return status.body.status === 'processing' ? undefined : status.body.status;
    });
    await browser.page.goto(`${base()}#/agents`, { waitUntil: 'networkidle0' });
    await browser.waitForText('tbody', 'What does the console fixture home page say?');
    await checkPage('agent-runs');
    await browser.page.goto(`${base()}#/agents/${started.body.id}`, { waitUntil: 'networkidle0' });
    await browser.waitForText('.timeline', 'Run finished');
    const steps = await browser.page.$$eval('.timeline .event strong', (elements) =>
      elements.map((element) => element.textContent),
    );
    expect(steps[0]).toBe('Run started');
    expect(steps).toEqual(
      expect.arrayContaining(['Plan step', 'Tool call', 'Tool result', 'Snapshot', 'Run finished']),
    );
    await browser.waitForText('.timeline', `reads ${site.url}/`);
    await browser.clickText('Show snapshot');
    await browser.waitForText('.timeline .code-block', '{');
    await checkPage('agent-trace');
  });

  it('shows a monitor, its checks and a change report with the diff side by side', async () => {
    const created = await call<{ data: { id: string } }>(platform.url(), 'POST', '/v2/monitor', {
      apiKey: platform.apiKey,
      body: {
        name: 'Pricing page',
        schedule: { cron: '0 0 * * *', timezone: 'UTC' },
        targets: [{ type: 'scrape', urls: [`${site.url}/prices`] }],
      },
    });
    expect(created.status).toBe(200);
    const monitorId = created.body.data.id;
    const runCheck = async () => {
      const run = await call<{ id: string }>(platform.url(), 'POST', `/v2/monitor/${monitorId}/run`, {
        apiKey: platform.apiKey,
        body: {},
      });
      expect(run.status).toBe(200);
      return until('the monitor check', async () => {
        const check = await call<{ data: { status: string } }>(
          platform.url(),
          'GET',
          `/v2/monitor/${monitorId}/checks/${run.body.id}`,
          { apiKey: platform.apiKey },
        );
        return ['queued', 'running'].includes(check.body.data.status) ? undefined : run.body.id;
      });
    };
    await runCheck();
    price = '12';
    const checkId = await runCheck();
    await browser.page.goto(`${base()}#/monitors`, { waitUntil: 'networkidle0' });
    await browser.waitForText('tbody', 'Pricing page');
    await checkPage('monitors');
    await browser.page.goto(`${base()}#/monitors/${monitorId}`, { waitUntil: 'networkidle0' });
    await browser.waitForText('table', '1 changed');
    await checkPage('monitor');
    await browser.page.goto(`${base()}#/monitors/${monitorId}/checks/${checkId}`, {
      waitUntil: 'networkidle0',
    });
    await browser.waitForText('table.side-by-side', 'Basic plan');
    expect(
      await browser.page.$$eval('table.side-by-side td.removed', (cells) =>
        cells.map((cell) => cell.textContent),
      ),
    ).toEqual([expect.stringContaining('Basic plan: 10 dollars')]);
    expect(
      await browser.page.$$eval('table.side-by-side td.added', (cells) =>
        cells.map((cell) => cell.textContent),
      ),
    ).toEqual([expect.stringContaining('Basic plan: 12 dollars')]);
    await checkPage('monitor-diff');
  });

  // After the agent run: a parsed upload's URL is its file name, which an agent run reading the team's
  // index would then try to scrape (see the report on the agent orchestrator).
  it('parses an uploaded file in the playground', async () => {
    await browser.page.goto(`${base()}#/playground/parse`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Playground');
    const upload = join(mkdtempSync(join(tmpdir(), 'console-upload-')), 'notes.html');
    writeFileSync(
      upload,
      '<html><head><title>Upload notes</title></head><body><main><h1>Upload notes</h1><p>Parsed from an upload in the console playground.</p></main></body></html>',
    );
    const input = await browser.page.$('input[type="file"]');
    await input?.uploadFile(upload);
    await browser.waitForText('.code-block code', 'notes.html');
    await browser.clickText('Run parse');
    await browser.waitForText('.rendered', 'Parsed from an upload in the console playground');
    await checkPage('playground-parse');
  });

  it('lists agent runs and monitor checks among the jobs, each opening its own report', async () => {
    await browser.page.goto(`${base()}#/activity`, { waitUntil: 'networkidle0' });
    await browser.waitForText('table.jobs tbody', 'Monitor check');
    const kinds = await browser.page.$$eval('table.jobs tbody tr td:nth-child(2)', (cells) =>
      cells.map((cell) => cell.textContent),
    );
    expect([...new Set(kinds)].sort()).toEqual([
      'Agent',
      'Batch scrape',
      'Crawl',
      'Map',
      'Monitor check',
      'Parse',
      'Scrape',
      'Search',
    ]);
    await checkPage('activity-all-kinds');
    await browser.page.select('select', 'monitor_check');
    // the filtered list: only the two checks
    await browser.page.waitForFunction(
      () => {
        const cells = [...document.querySelectorAll('table.jobs tbody tr td:nth-child(2)')].map(
          (cell) => cell.textContent,
        );
        return cells.length === 2 && cells.every((kind) => kind === 'Monitor check');
      },
      { timeout: 30_000, polling: 200 },
    );
    expect(browser.page.url()).toContain('#/activity?kind=monitor_check');
    await browser.page.click('table.jobs tbody tr:first-child a');
    await browser.waitForText('h1', 'Monitor check');
    await browser.waitForText('table.side-by-side', 'Basic plan: 12 dollars');
  });

  it('shows credits per day and endpoint, the balance, limits and queue', async () => {
    await browser.page.goto(`${base()}#/usage`, { waitUntil: 'networkidle0' });
    await browser.waitForText('figcaption', 'Credits per day');
    const team = await call<{ data: { credits: number } }>(platform.url(), 'GET', '/v2/team', {
      apiKey: platform.apiKey,
    });
    await browser.waitForText('.stat .big', new Intl.NumberFormat('en').format(team.body.data.credits));
    const perEndpoint = await browser.page.$$eval('#endpoints-title + table tbody th', (cells) =>
      cells.map((cell) => cell.textContent),
    );
    expect(perEndpoint).toEqual(expect.arrayContaining(['Agent', 'Crawl', 'Scrape']));
    expect(await browser.page.$$eval('.chart rect', (rects) => rects.length)).toBeGreaterThan(2);
    await checkPage('usage');
  });

  it('gives the operator teams, keys and health: a key created here works, and once revoked gets 401', async () => {
    await browser.page.goto(`${base()}#/sign-in`, { waitUntil: 'networkidle0' });
    await browser.waitForText('h1', 'Sign in');
    await browser.typeInto('Admin key', 'not-the-admin-key-but-long-enough-000000');
    await browser.clickText('Sign in as operator');
    await browser.waitForText('.error', 'Unauthorized');
    await browser.typeInto('Admin key', ADMIN_KEY);
    await browser.clickText('Sign in as operator');
    await browser.waitForText('h1', 'Operator');
    await browser.waitForText('#health-title ~ .table-scroll', 'browser');
    await checkPage('operator');
    await browser.typeInto('New team name', 'console-e2e');
    await browser.typeInto('Initial credits', '500');
    await browser.clickText('Create team');
    await browser.waitForText('#team-title', 'Team console-e2e');
    await browser.typeInto('Key name (optional)', 'made in the console');
    await browser.clickText('Create key');
    await browser.waitForText('.new-key', 'shown once');
    const key = await browser.page.$eval('.new-key code', (element) => element.textContent ?? '');
    expect(key).toMatch(/^fc-[0-9a-f]{48}$/);
    await checkPage('operator-new-key');
    const team = await call<{ data: { name: string; credits: number } }>(platform.url(), 'GET', '/v2/team', {
      apiKey: key,
    });
    expect(team.status).toBe(200);
    expect(team.body.data).toMatchObject({ name: 'console-e2e', credits: 500 });
    await browser.clickText('I have copied it');
    await browser.clickText('Revoke');
    await browser.clickText('Confirm revoke');
    await browser.waitForText('#keys-title ~ .table-scroll', 'revoked');
    expect((await call(platform.url(), 'GET', '/v2/team', { apiKey: key })).status).toBe(401);
    await checkPage('operator-revoked');
    // the key shown once is never in a URL the page requested, nor are the team and admin keys
    for (const secret of [key, platform.apiKey, ADMIN_KEY])
      expect(browser.urls.filter((url) => url.includes(secret))).toEqual([]);
  });

  it('signs out: the keys are gone from the tab', async () => {
    await browser.clickText('Sign out');
    await browser.waitForText('h1', 'Sign in');
    expect(await browser.page.evaluate(() => sessionStorage.getItem('quarry.console.session'))).toBeNull();
  });
});
