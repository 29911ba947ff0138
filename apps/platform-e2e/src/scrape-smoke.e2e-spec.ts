import { SCRAPE_SITE, startScrapeSite, type ScrapeSite } from '@quarry/testing';
import { call } from './support/api-client';
import { startStandalone, type Platform } from './support/platform';

describe('smoke', () => {
  let site: ScrapeSite;
  let platform: Platform;
  beforeAll(async () => {
    site = await startScrapeSite();
    platform = await startStandalone({ ALLOW_PRIVATE_NETWORKS: 'false', OUTBOUND_ALLOWLIST: '127.0.0.1' });
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });
  it('renders a JS page', async () => {
    const response = await call(platform.url(), 'POST', '/v2/scrape', { apiKey: platform.apiKey, body: { url: `${site.url}/js` } });
    console.log(JSON.stringify(response.body, null, 1).slice(0, 2000));
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).toContain(SCRAPE_SITE.jsMarker);
  });
});
