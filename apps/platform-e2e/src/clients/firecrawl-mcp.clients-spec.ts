import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Platform } from '../support/platform';
import { CLIENT_SITE, type ClientSite, startClientSite } from './support/client-site';
import { clientEnv, MCP_MAIN, requireClient, startClientPlatform } from './support/clients';
import { McpSession, type ToolResult } from './support/mcp-session';

/** Tools of the reference's hosted-only services: called like the rest, they must fail cleanly (404). */
const HOSTED_ONLY = [
  'firecrawl_find_tools',
  'firecrawl_search_feedback',
  'firecrawl_feedback',
  'firecrawl_research_search_papers',
  'firecrawl_research_inspect_paper',
  'firecrawl_research_related_papers',
  'firecrawl_research_read_paper',
  'firecrawl_research_search_github',
  'firecrawl_developer_search',
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * firecrawl-mcp 3.26 (npm, unmodified) spawned over stdio as an MCP host does: initialize,
 * tools/list, then every one of its 29 tools called against the one-process server.
 */
describe('firecrawl-mcp over stdio against the one-process server', () => {
  let site: ClientSite;
  let platform: Platform;
  let mcp: McpSession;
  const outcomes: { tool: string; ok: boolean; note: string }[] = [];
  const state: Record<string, string> = {};

  /** A tool error, or the feedback tools' way of reporting one: a structured `success: false` body. */
  const refused = (result: ToolResult) => result.isError || /"success":\s*false/.test(result.text);

  /** Calls a tool and records the outcome for the summary (calls tried / passed). */
  const call = async (
    tool: string,
    args: Record<string, unknown>,
    expectError = false,
  ): Promise<ToolResult> => {
    const result = await mcp.callTool(tool, args);
    outcomes.push({
      tool,
      ok: refused(result) === expectError,
      note: result.isError ? `error: ${result.text.slice(0, 160).replace(/\s+/g, ' ')}` : 'ok',
    });
    return result;
  };

  beforeAll(async () => {
    requireClient(MCP_MAIN);
    site = await startClientSite();
    platform = await startClientPlatform();
    mcp = await McpSession.start(
      MCP_MAIN,
      clientEnv({ FIRECRAWL_API_URL: platform.url(), FIRECRAWL_API_KEY: platform.apiKey }),
    );
  }, 300_000);

  afterAll(async () => {
    await mcp?.close();
    await platform?.stop();
    await site?.close();
    const passed = outcomes.filter((outcome) => outcome.ok).length;
    console.log(
      `firecrawl-mcp 3.26.0: ${passed}/${outcomes.length} calls as expected\n${outcomes
        .map((outcome) => `  ${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.tool}: ${outcome.note}`)
        .join('\n')}`,
    );
  });

  it('lists its 29 tools', async () => {
    const tools = await mcp.listTools();
    expect(tools).toHaveLength(29);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['firecrawl_scrape', ...HOSTED_ONLY]),
    );
  });

  describe('scrape', () => {
    it('markdown of a page; the scrapeId is kept for interact', async () => {
      const result = await call('firecrawl_scrape', { url: site.at('/'), formats: ['markdown'], maxAge: 0 });
      expect(result.isError).toBe(false);
      expect(result.text).toContain(CLIENT_SITE.marker);
      state.scrapeId = UUID.exec(result.text)?.[0] ?? '';
      expect(state.scrapeId).not.toBe('');
    });

    it('a PDF with parsers ["pdf"] and pdfOptions', async () => {
      const result = await call('firecrawl_scrape', {
        url: site.at('/report.pdf'),
        formats: ['markdown'],
        parsers: ['pdf'],
        pdfOptions: { maxPages: 2 },
      });
      expect(result.isError).toBe(false);
      expect(result.text).toContain(CLIENT_SITE.pdfTitle);
    });

    it('a write action with a selector types into that element', async () => {
      const result = await call('firecrawl_scrape', {
        url: site.at('/form'),
        formats: ['markdown'],
        onlyMainContent: false,
        maxAge: 0,
        actions: [
          { type: 'wait', milliseconds: 200 },
          { type: 'write', selector: '#second', text: CLIENT_SITE.typedText },
          { type: 'wait', milliseconds: 200 },
        ],
      });
      expect(result.isError).toBe(false);
      expect(result.text).toContain(`second:${CLIENT_SITE.typedText}`);
      expect(result.text).not.toContain(`first:${CLIENT_SITE.typedText}`);
    });

    it('json, query, branding, links and a screenshot', async () => {
      const json = await call('firecrawl_scrape', {
        url: site.at('/article'),
        formats: ['json'],
        jsonOptions: {
          prompt: 'The heading of the article',
          schema: { type: 'object', properties: { heading: { type: 'string' } } },
        },
      });
      expect(json.isError).toBe(false);
      const query = await call('firecrawl_scrape', {
        url: site.at('/article'),
        formats: ['query'],
        queryOptions: { prompt: 'What is the article about?' },
      });
      expect(query.isError).toBe(false);
      const branding = await call('firecrawl_scrape', {
        url: site.at('/brand'),
        formats: ['branding', 'links', 'screenshot'],
      });
      expect(branding.isError).toBe(false);
      expect(branding.text).toContain('colors');
    });
  });

  it('map lists the site', async () => {
    const result = await call('firecrawl_map', { url: site.at('/'), limit: 20, sitemap: 'include' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain(site.at('/about'));
  });

  it('search with the default sources (web + alexandria): 403 from the hosted source, then web alone', async () => {
    await call('firecrawl_scrape', { url: site.at('/article'), formats: ['markdown'] });
    const result = await call('firecrawl_search', { query: CLIENT_SITE.articleMarker, limit: 5 });
    expect(result.isError).toBe(false);
    expect(result.text).toContain(site.at('/article'));
  });

  it('crawl, then its status', async () => {
    const started = await call('firecrawl_crawl', { url: site.at('/'), limit: 4, sitemap: 'include' });
    expect(started.isError).toBe(false);
    state.crawlId = UUID.exec(started.text)?.[0] ?? '';
    expect(state.crawlId).not.toBe('');
    const deadline = Date.now() + 120_000;
    let status: ToolResult;
    do {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      status = await mcp.callTool('firecrawl_check_crawl_status', { id: state.crawlId });
    } while (!status.isError && !/"status":\s*"completed"/.test(status.text) && Date.now() < deadline);
    outcomes.push({
      tool: 'firecrawl_check_crawl_status',
      ok: !status.isError,
      note: status.isError ? status.text.slice(0, 160) : 'ok',
    });
    expect(status.isError).toBe(false);
    expect(status.text).toMatch(/"status":\s*"completed"/);
    expect(status.text).toContain(CLIENT_SITE.marker);
  });

  it('extract is refused by the MCP server itself (deprecated there); the server is never called', async () => {
    const result = await call(
      'firecrawl_extract',
      { urls: [site.at('/article')], prompt: 'The heading of the article' },
      true,
    );
    expect(result.isError).toBe(true);
    expect(result.text).toContain('firecrawl_extract is deprecated and unavailable through MCP');
  });

  it('agent starts a run, agent_status reads it', async () => {
    const started = await call('firecrawl_agent', {
      prompt: `What does the home page of ${site.url} welcome?`,
      urls: [site.at('/')],
    });
    expect(started.isError).toBe(false);
    state.agentId = UUID.exec(started.text)?.[0] ?? '';
    expect(state.agentId).not.toBe('');
    const status = await call('firecrawl_agent_status', { id: state.agentId });
    expect(status.isError).toBe(false);
    expect(status.text).toMatch(/"status":\s*"(processing|completed|failed)"/);
  });

  it('interact runs code on the scraped page, interact_stop ends the session', async () => {
    const result = await call('firecrawl_interact', {
      scrapeId: state.scrapeId,
      code: 'return await page.title();',
      language: 'node',
      timeout: 60,
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Client fixture home');
    const stopped = await call('firecrawl_interact_stop', { scrapeId: state.scrapeId });
    expect(stopped.isError).toBe(false);
  });

  it('parse reads a local file', async () => {
    const file = join(tmpdir(), `quarry-mcp-${Date.now()}.html`);
    writeFileSync(
      file,
      `<html><body><h1>Local ${CLIENT_SITE.marker} file</h1><p>Parsed by the MCP tool.</p></body></html>`,
    );
    const result = await call('firecrawl_parse', { filePath: file });
    expect(result.isError).toBe(false);
    expect(result.text).toContain(CLIENT_SITE.marker);
  });

  it('monitors: create, list, get, update, run, checks, check, delete', async () => {
    const created = await call('firecrawl_monitor_create', {
      page: site.at('/about'),
      goal: 'Tell me when the about page changes',
      name: 'mcp monitor',
    });
    expect(created.isError).toBe(false);
    state.monitorId = UUID.exec(created.text)?.[0] ?? '';
    expect((await call('firecrawl_monitor_list', { limit: 10 })).text).toContain(state.monitorId);
    expect((await call('firecrawl_monitor_get', { id: state.monitorId })).isError).toBe(false);
    const updated = await call('firecrawl_monitor_update', {
      id: state.monitorId,
      body: { name: 'mcp monitor renamed' },
    });
    expect(updated.text).toContain('mcp monitor renamed');
    const run = await call('firecrawl_monitor_run', { id: state.monitorId });
    expect(run.isError).toBe(false);
    const checkId = UUID.exec(run.text.replace(state.monitorId, ''))?.[0] ?? '';
    expect((await call('firecrawl_monitor_checks', { id: state.monitorId, limit: 5 })).isError).toBe(false);
    expect((await call('firecrawl_monitor_check', { id: state.monitorId, checkId })).isError).toBe(false);
    expect((await call('firecrawl_monitor_delete', { id: state.monitorId })).isError).toBe(false);
  });

  it('credit usage', async () => {
    const result = await call('firecrawl_credit_usage', {});
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/remaining/i);
  });

  describe('tools of hosted-only services fail cleanly', () => {
    const calls: Record<string, Record<string, unknown>> = {
      firecrawl_find_tools: { query: 'companies' },
      firecrawl_search_feedback: { searchId: '00000000-0000-4000-8000-000000000000', rating: 'good' },
      firecrawl_feedback: {
        endpoint: 'scrape',
        jobId: '00000000-0000-4000-8000-000000000000',
        rating: 'good',
      },
      firecrawl_research_search_papers: { query: 'crawler politeness' },
      firecrawl_research_inspect_paper: { paperId: 'arxiv:2401.00001' },
      firecrawl_research_related_papers: { seed_ids: ['arxiv:2401.00001'], intent: 'related work' },
      firecrawl_research_read_paper: { paperId: 'arxiv:2401.00001', question: 'What is measured?' },
      firecrawl_research_search_github: { query: 'web crawler' },
      firecrawl_developer_search: { query: 'fastify plugin order' },
    };
    it.each(HOSTED_ONLY)('%s', async (tool) => {
      const result = await call(tool, calls[tool], true);
      expect(refused(result)).toBe(true);
      // Either the reference route is absent here (404 Not Found) or its hosted feature is off (403).
      expect(result.text).toMatch(
        /404|Not Found|Exchange is not enabled for this team|deprecated and unavailable/,
      );
    });
  });
});
