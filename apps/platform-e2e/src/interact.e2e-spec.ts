import Firecrawl from '@mendable/firecrawl-js';

import { type FixtureServer, html, startFixtureServer, startInteractSite } from '@quarry/testing';

import { call } from './support/api-client';
import { type Platform, startCluster, startStandalone } from './support/platform';
import { createTeamKey, teamCredits } from './support/teams';

interface InteractAnswer {
  success: boolean;
  output?: string;
  stdout?: string;
  stderr?: string;
  result?: string;
  exitCode?: number;
  killed?: boolean;
  truncated?: boolean;
}

// Fixtures on 127.0.0.1 are allowed; 127.0.0.2 (the "private" site) stays refused by the guard.
const GUARDED = {
  ALLOW_PRIVATE_NETWORKS: 'false',
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  BROWSER_CONCURRENCY: '2',
};

/**
 * Interact (docs/interact.md) with the unmodified SDK 4.42: sessions on the pages of
 * earlier scrapes, Playwright-style code in the browser sandbox, offline prompts, billing on stop
 * and the exact errors — over Kafka (calls keyed by session reach the worker holding the page) and
 * in one process.
 */
describe.each([
  [
    'cluster over Kafka (1 gateway, 2 workers)',
    () => startCluster({ gateways: 1, workers: 2, env: GUARDED }),
  ],
  ['one process', () => startStandalone(GUARDED)],
])('interact: %s', (_mode, start) => {
  let platform: Platform;
  let site: FixtureServer;
  let privateSite: FixtureServer;
  let app: Firecrawl;

  beforeAll(async () => {
    site = await startInteractSite();
    privateSite = await startFixtureServer({ '*': html('<h1>internal</h1>') }, '127.0.0.2');
    platform = await start();
    app = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.url() });
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
    await privateSite?.close();
  });

  const scrapeId = async (path: string, client = app): Promise<string> => {
    const document = await client.scrape(`${site.url}${path}`, { formats: ['markdown'] });
    const id = document.metadata?.scrapeId;
    expect(id).toEqual(expect.any(String));
    return id as string;
  };

  it('types into a form and clicks with Playwright-style code, then reads the result', async () => {
    const id = await scrapeId('/form');
    const answer = (await app.interact(id, {
      code: `await page.fill('#name', 'Ada');
             await page.click('#send');
             console.log('sent');
             return { greeting: await page.textContent('#result'), node: typeof process };`,
    })) as InteractAnswer;
    expect(answer).toMatchObject({
      success: true,
      exitCode: 0,
      killed: false,
      truncated: false,
      stdout: 'sent\n',
      stderr: '',
    });
    expect(JSON.parse(answer.result ?? 'null')).toEqual({ greeting: 'Hello, Ada!', node: 'undefined' });
    expect(await app.stopInteraction(id)).toMatchObject({
      success: true,
      status: 'stopped',
      creditsBilled: 1,
    });
  });

  it('keeps the live page between calls: a DOM-only counter goes on counting', async () => {
    const id = await scrapeId('/counter');
    const click = `await page.click('#inc'); return await page.textContent('#count');`;
    const first = (await app.interact(id, { code: click })) as InteractAnswer;
    const second = (await app.interact(id, { code: click })) as InteractAnswer;
    expect([first.result, second.result]).toEqual(['"1"', '"2"']);
    await app.stopInteraction(id);
  });

  it('holds one of the team browser slots while a session lives, and frees it on stop', async () => {
    // The team may run 2 browser pages at once (TEAM_CONCURRENCY_LIMIT default).
    const [a, b, c] = [await scrapeId('/second'), await scrapeId('/second'), await scrapeId('/second')];
    for (const id of [a, b])
      expect(((await app.interact(id, { code: 'return 1' })) as InteractAnswer).result).toBe('1');
    await expect(app.interact(c, { code: 'return 1', timeout: 3 })).rejects.toMatchObject({
      status: 429,
      message: 'Concurrency limit reached',
    });
    await app.stopInteraction(a);
    expect(((await app.interact(c, { code: 'return 3' })) as InteractAnswer).result).toBe('3');
    await app.stopInteraction(b);
    await app.stopInteraction(c);
  });

  it('runs a simple prompt offline, labelled as the built-in parser, and bills each call on stop', async () => {
    const before = await teamCredits(platform);
    const id = await scrapeId('/form');
    const answer = (await app.interact(id, {
      prompt: 'Type Grace into the Your name field, then click Send message. What does the page say?',
    })) as InteractAnswer;
    expect(answer.success).toBe(true);
    expect(answer.exitCode).toBe(0);
    expect(answer.output).toMatch(/Typed "Grace"/);
    expect(answer.output).toMatch(/Clicked "Send message"/);
    expect(answer.output).toMatch(/Hello, Grace!/);
    expect(answer.output).toMatch(/built-in parser/);
    expect(JSON.parse(answer.result ?? '{}')).toMatchObject({
      answer: expect.stringContaining('Hello, Grace!'),
      title: 'Contact form',
    });
    const heading = (await app.interact(id, { prompt: 'What is the heading?' })) as InteractAnswer;
    expect(JSON.parse(heading.result ?? '{}')).toMatchObject({ answer: 'Contact us' });

    const stopped = await app.stopInteraction(id);
    expect(stopped).toMatchObject({ success: true, status: 'stopped', creditsBilled: 2 });
    expect(stopped.sessionDurationMs).toBeGreaterThan(0);
    // Stopping again answers the same totals; scrape (1) + two calls (1 each) were charged.
    expect(await app.stopInteraction(id)).toMatchObject({
      success: true,
      status: 'stopped',
      creditsBilled: 2,
    });
    expect(before - (await teamCredits(platform))).toBe(3);
    // A call after stop starts a new session on the scrape's page.
    const fresh = (await app.interact(id, {
      code: `return await page.inputValue('#name');`,
    })) as InteractAnswer;
    expect(fresh.result).toBe('""');
    expect(await app.stopInteraction(id)).toMatchObject({ creditsBilled: 1 });
  });

  it('keeps the SSRF guard on navigations of user code', async () => {
    const id = await scrapeId('/form');
    const answer = (await app.interact(id, {
      code: `try { await page.goto(${JSON.stringify(`${privateSite.url}/admin`)}); return 'reached'; } catch (error) { return error.message; }`,
    })) as InteractAnswer;
    expect(answer.result).toMatch(/blocked insecure target URL/);
    expect(privateSite.hits.size).toBe(0);
    await app.stopInteraction(id);
    // A session on the page of a scrape the guard refused (200 with statusCode 403) is refused too:
    // 403 in the spec shape, not a 500 (found by fuzzing the API).
    const blocked = await app.scrape(`${privateSite.url}/admin`, { formats: ['markdown'] });
    expect(blocked.metadata?.statusCode).toBe(403);
    const refused = await call(platform.url(), 'POST', `/v2/scrape/${blocked.metadata?.scrapeId}/interact`, {
      apiKey: platform.apiKey,
      body: { code: 'return 1' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      error: expect.stringMatching(/could not be opened: blocked insecure target URL/),
    });
    expect(privateSite.hits.size).toBe(0);
  });

  it('answers the exact errors: bad UUID, another team, unsupported language, a prompt it cannot read', async () => {
    const badId = await call(platform.url(), 'POST', '/v2/scrape/not-a-uuid/interact', {
      apiKey: platform.apiKey,
      body: { code: 'return 1', unknownKey: true },
    });
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: 'Invalid job ID format. Job ID must be a valid UUID.',
    });
    await expect(app.stopInteraction('not-a-uuid')).rejects.toMatchObject({
      status: 400,
      message: 'Invalid job ID format. Job ID must be a valid UUID.',
    });

    const id = await scrapeId('/form');
    const other = await createTeamKey(platform);
    const stranger = new Firecrawl({ apiKey: other.apiKey, apiUrl: platform.url() });
    await expect(stranger.interact(id, { code: 'return 1' })).rejects.toMatchObject({
      status: 404,
      message: 'Job not found.',
    });
    await expect(stranger.stopInteraction(id)).rejects.toMatchObject({
      status: 404,
      message: 'Job not found.',
    });
    await expect(
      app.interact('6f1f3d3e-2a5b-4c1e-9d0a-3b2c1d0e9f8a', { code: 'return 1' }),
    ).rejects.toMatchObject({ status: 404, message: 'Job not found.' });

    await expect(app.interact(id, { code: 'print(1)', language: 'python' })).rejects.toMatchObject({
      status: 400,
      message:
        'language "python" is not supported on this server: only "node" (Playwright-style JavaScript, run inside the browser sandbox) is available',
    });
    await expect(app.interact(id, { code: 'ls', language: 'bash' })).rejects.toMatchObject({ status: 400 });
    await expect(app.interact(id, { prompt: 'make the page prettier please' })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(
        /^Could not understand the prompt without a language model: "make the page prettier please"/,
      ),
    });
    // Refused calls cost nothing; the session they opened is stopped with nothing billed.
    expect(await app.stopInteraction(id)).toMatchObject({
      success: true,
      status: 'stopped',
      creditsBilled: 0,
    });
  });
});
