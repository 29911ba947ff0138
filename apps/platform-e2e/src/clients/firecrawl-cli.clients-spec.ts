import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Platform } from '../support/platform';
import { CLIENT_SITE, type ClientSite, startClientSite } from './support/client-site';
import {
  CLI_MAIN,
  clientEnv,
  type ProcessResult,
  requireClient,
  runProcess,
  startClientPlatform,
} from './support/clients';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * firecrawl-cli 1.23 (npm, unmodified): the `firecrawl` command pointed at the one-process server
 * with FIRECRAWL_API_URL / FIRECRAWL_API_KEY, run in a scratch directory with its own HOME.
 */
describe('firecrawl-cli against the one-process server', () => {
  let site: ClientSite;
  let platform: Platform;
  let workdir: string;
  let env: Record<string, string>;
  const outcomes: { command: string; ok: boolean; note: string }[] = [];

  /** Runs `firecrawl <args>` and records whether it ended as expected (exit 0, or non-zero when refused). */
  const firecrawl = async (
    args: string[],
    expectFailure = false,
    timeoutMs = 300_000,
  ): Promise<ProcessResult> => {
    const result = await runProcess(process.execPath, [CLI_MAIN, ...args], { env, cwd: workdir, timeoutMs });
    const failed = result.code !== 0;
    outcomes.push({
      command: args.slice(0, 2).join(' '),
      ok: failed === expectFailure,
      note: failed
        ? `exit ${result.code}: ${(result.stderr || result.stdout).trim().slice(0, 160).replace(/\s+/g, ' ')}`
        : 'ok',
    });
    return result;
  };
  const json = <T = Record<string, unknown>>(result: ProcessResult): T => JSON.parse(result.stdout) as T;

  beforeAll(async () => {
    requireClient(CLI_MAIN);
    site = await startClientSite();
    platform = await startClientPlatform();
    workdir = mkdtempSync(join(tmpdir(), 'quarry-cli-'));
    env = clientEnv({
      FIRECRAWL_API_URL: platform.url(),
      FIRECRAWL_API_KEY: platform.apiKey,
      NO_COLOR: '1',
      FIRECRAWL_NO_TELEMETRY: '1',
    });
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await site?.close();
    const passed = outcomes.filter((outcome) => outcome.ok).length;
    console.log(
      `firecrawl-cli 1.23.3: ${passed}/${outcomes.length} commands as expected\n${outcomes
        .map((outcome) => `  ${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.command}: ${outcome.note}`)
        .join('\n')}`,
    );
  });

  it('--status, version, view-config and doctor', async () => {
    const status = await firecrawl(['--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/credits/i);
    expect((await firecrawl(['version'])).code).toBe(0);
    expect((await firecrawl(['view-config'])).code).toBe(0);
    const doctor = await firecrawl(['doctor']);
    expect(doctor.stdout + doctor.stderr).toMatch(/credit/i);
  });

  describe('scrape', () => {
    it('markdown to stdout', async () => {
      const result = await firecrawl(['scrape', site.at('/')]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(CLIENT_SITE.marker);
    });

    it('several formats as JSON, a country in lower case', async () => {
      const result = await firecrawl([
        'scrape',
        site.at('/'),
        '--format',
        'markdown,links,html',
        '--json',
        '--country',
        'de',
        '--languages',
        'de,en',
      ]);
      expect(result.code).toBe(0);
      const document = json<{ markdown?: string; links?: string[]; html?: string }>(result);
      expect(document.markdown).toContain(CLIENT_SITE.marker);
      expect(document.links).toContain(site.at('/about'));
    });

    it('a PDF, a screenshot, a query and a schema', async () => {
      expect((await firecrawl(['scrape', site.at('/report.pdf')])).stdout).toContain(CLIENT_SITE.pdfTitle);
      const shot = await firecrawl(['scrape', site.at('/'), '--screenshot', '--json']);
      expect(shot.code).toBe(0);
      expect(json<{ screenshot?: string }>(shot).screenshot).toMatch(/^https?:\/\//);
      expect(
        (await firecrawl(['scrape', site.at('/article'), '-Q', 'What is the article about?'])).code,
      ).toBe(0);
      const schema = JSON.stringify({ type: 'object', properties: { heading: { type: 'string' } } });
      expect((await firecrawl(['scrape', site.at('/article'), '--schema', schema, '--json'])).code).toBe(0);
    });

    it('actions: a write into a chosen field', async () => {
      const actions = JSON.stringify([
        { type: 'write', selector: '#second', text: CLIENT_SITE.typedText },
        { type: 'wait', milliseconds: 200 },
      ]);
      const result = await firecrawl(['scrape', site.at('/form'), '--actions', actions, '--max-age', '0']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`second:${CLIENT_SITE.typedText}`);
    });

    it('several URLs at once are saved under .firecrawl/', async () => {
      const result = await firecrawl(['scrape', site.at('/about'), site.at('/article')]);
      expect(result.code).toBe(0);
      const saved = existsSync(join(workdir, '.firecrawl'))
        ? readdirSync(join(workdir, '.firecrawl'), { recursive: true }).map(String)
        : [];
      expect(saved.length).toBeGreaterThanOrEqual(2);
    });
  });

  it('map and search', async () => {
    const map = await firecrawl(['map', site.at('/'), '--json', '--limit', '20']);
    expect(map.code).toBe(0);
    expect(map.stdout).toContain(site.at('/about'));
    await firecrawl(['scrape', site.at('/article')]);
    const search = await firecrawl(['search', CLIENT_SITE.articleMarker, '--json', '--limit', '5']);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain(site.at('/article'));
    const scraped = await firecrawl([
      'search',
      CLIENT_SITE.articleMarker,
      '--scrape',
      '--scrape-formats',
      'markdown',
      '--json',
    ]);
    expect(scraped.code).toBe(0);
  });

  it('crawl: wait for it, read its status, cancel another', async () => {
    const crawl = await firecrawl([
      'crawl',
      site.at('/'),
      '--limit',
      '4',
      '--wait',
      '--poll-interval',
      '1',
      '--timeout',
      '120',
    ]);
    expect(crawl.code).toBe(0);
    expect(crawl.stdout).toContain(CLIENT_SITE.marker);
    const id = UUID.exec(crawl.stdout)?.[0];
    expect(id).toBeDefined();
    const status = await firecrawl(['crawl', id as string, '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/completed/);
    // The CLI documents --delay in milliseconds but sends the number as the API's seconds (max 60).
    const started = await firecrawl(['crawl', site.at('/'), '--limit', '50', '--delay', '2']);
    const other = UUID.exec(started.stdout)?.[0];
    expect(other).toBeDefined();
    expect((await firecrawl(['crawl', other as string, '--cancel'])).code).toBe(0);
  });

  it('parse: a PDF and an HTML file', async () => {
    const pdf = join(workdir, 'report.pdf');
    writeFileSync(pdf, Buffer.from(await (await fetch(site.at('/report.pdf'))).arrayBuffer()));
    const parsed = await firecrawl(['parse', pdf]);
    expect(parsed.code).toBe(0);
    expect(parsed.stdout).toContain(CLIENT_SITE.pdfTitle);
    const page = join(workdir, 'page.html');
    writeFileSync(page, `<html><body><h1>${CLIENT_SITE.marker} upload</h1></body></html>`);
    const html = await firecrawl(['parse', page, '--json']);
    expect(html.code).toBe(0);
    expect(html.stdout).toContain(CLIENT_SITE.marker);
  });

  it('agent: start, then status', async () => {
    const started = await firecrawl([
      'agent',
      `What does ${site.url} welcome?`,
      '--urls',
      site.at('/'),
      '--json',
    ]);
    expect(started.code).toBe(0);
    const id = UUID.exec(started.stdout)?.[0];
    expect(id).toBeDefined();
    const status = await firecrawl(['agent', id as string, '--status', '--json']);
    expect(status.code).toBe(0);
  });

  it('interact: code on the last scrape', async () => {
    const scraped = await firecrawl(['scrape', site.at('/'), '--json', '--format', 'markdown']);
    const scrapeId = UUID.exec(scraped.stdout)?.[0] as string;
    const result = await firecrawl([
      'interact',
      '-s',
      scrapeId,
      '-c',
      'return await page.title();',
      '--timeout',
      '60',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Client fixture home');
  });

  it('monitor: create, list, get, update, run, checks, delete', async () => {
    const created = await firecrawl([
      'monitor',
      'create',
      '--name',
      'cli monitor',
      '--goal',
      'Tell me when it changes',
      '--schedule',
      'every 30 minutes',
      '--page',
      site.at('/about'),
    ]);
    expect(created.code).toBe(0);
    const id = UUID.exec(created.stdout)?.[0] as string;
    expect(id).toBeDefined();
    expect((await firecrawl(['monitor', 'list', '--limit', '20'])).stdout).toContain(id);
    expect((await firecrawl(['monitor', 'get', id])).code).toBe(0);
    expect((await firecrawl(['monitor', 'run', id])).code).toBe(0);
    expect((await firecrawl(['monitor', 'checks', id, '--limit', '5'])).code).toBe(0);
    expect((await firecrawl(['monitor', 'update', id, '--state', 'paused'])).code).toBe(0);
    // A paused monitor is not run by hand (our rule): the CLI reports the reason and exits 1.
    const paused = await firecrawl(['monitor', 'run', id], true);
    expect(paused.stderr + paused.stdout).toContain('paused');
    expect((await firecrawl(['monitor', 'delete', id])).code).toBe(0);
  });

  it('credit usage', async () => {
    const result = await firecrawl(['credit-usage', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/remaining/i);
  });

  it('hosted-only commands fail with a message, not a crash', async () => {
    for (const args of [
      ['developer', 'fastify plugin order'],
      ['research', 'search-papers', 'crawler politeness'],
      ['search-feedback', '00000000-0000-4000-8000-000000000000', '--rating', 'good'],
      ['feedback', 'scrape', '00000000-0000-4000-8000-000000000000', '--rating', 'good'],
    ]) {
      const result = await firecrawl(args, true);
      expect(result.code).not.toBe(0);
      expect(result.stderr + result.stdout).toMatch(/404|Not Found|not found/i);
    }
  });

  it('the files the CLI saved are what the server returned', () => {
    const dir = join(workdir, '.firecrawl');
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.md'));
    expect(
      files.some((name) => readFileSync(join(dir, name), 'utf8').includes(CLIENT_SITE.articleMarker)),
    ).toBe(true);
  });
});
