import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import type { Platform } from '../support/platform';
import { CLIENT_SITE, type ClientSite, startClientSite } from './support/client-site';
import { type CheckResult, failuresOf, runPythonGroup, startClientPlatform, tally } from './support/clients';

/**
 * firecrawl-py 4.55 (PyPI, unmodified): its v2 client, AsyncFirecrawl, its `.v1` client, and an empty
 * key against an auth-off server, all against the one-process server and a fixture site. Every check
 * is a call the SDK makes with an assertion on what it returned (python/firecrawl_py_suite.py).
 */
describe('firecrawl-py against the one-process server', () => {
  const results: string[] = [];
  let site: ClientSite;

  beforeAll(async () => {
    site = await startClientSite();
  });

  afterAll(async () => {
    await site?.close();
    console.log(`firecrawl-py 4.55.0\n${results.join('\n')}`);
  });

  const suiteEnv = (platform: Platform, apiKey: string, extra: Record<string, string> = {}) => ({
    API_URL: platform.url(),
    API_KEY: apiKey,
    SITE_URL: site.url,
    MARKER: CLIENT_SITE.marker,
    ARTICLE_MARKER: CLIENT_SITE.articleMarker,
    OCR_LINE: CLIENT_SITE.ocrLine,
    PDF_TITLE: CLIENT_SITE.pdfTitle,
    ...extra,
  });

  const runGroup = async (group: string, env: Record<string, string>) => {
    const checks: CheckResult[] = await runPythonGroup('firecrawl_py_suite.py', group, env);
    results.push(
      tally(group, checks),
      ...checks.filter((check) => !check.ok).map((check) => `  refused: ${check.check}`),
    );
    return checks;
  };

  describe('with a key', () => {
    let platform: Platform;
    let twin: FixtureServer;

    beforeAll(async () => {
      // Another origin on the same host: map must not list its pages (they reach the team index).
      twin = await startFixtureServer({
        '/': html(
          '<html><body><main><h1>Twin origin page</h1><p>Served on another port.</p></main></body></html>',
        ),
      });
      platform = await startClientPlatform();
    }, 300_000);

    afterAll(async () => {
      await platform?.stop();
      await twin?.close();
    });

    it('v2 client: every call answers in the shape the SDK validates', async () => {
      const checks = await runGroup('v2', suiteEnv(platform, platform.apiKey, { TWIN_URL: twin.url }));
      expect(failuresOf(checks)).toEqual([]);
      expect(checks.length).toBeGreaterThanOrEqual(20);
    });

    it('AsyncFirecrawl: the same, over aiohttp/httpx', async () => {
      const checks = await runGroup('async', suiteEnv(platform, platform.apiKey));
      expect(failuresOf(checks)).toEqual([]);
    });

    it('.v1 client: the v1 API translated onto the v2 services', async () => {
      const checks = await runGroup('v1', suiteEnv(platform, platform.apiKey));
      expect(failuresOf(checks)).toEqual([]);
      expect(checks.length).toBeGreaterThanOrEqual(10);
    });
  });

  describe('with an empty key against AUTH_ENABLED=false', () => {
    let platform: Platform;

    beforeAll(async () => {
      platform = await startClientPlatform({ AUTH_ENABLED: 'false' });
    }, 300_000);

    afterAll(async () => {
      await platform?.stop();
    });

    it('sends no Authorization header and is served as the one implicit team', async () => {
      const checks = await runGroup('keyless', suiteEnv(platform, ''));
      expect(failuresOf(checks)).toEqual([]);
    });
  });
});
