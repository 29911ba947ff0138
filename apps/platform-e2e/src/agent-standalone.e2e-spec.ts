import { type FixtureHandler, type FixtureServer, startFixtureServer } from '@quarry/testing';

import { checkTraceInvariants, traceOf, waitForAgent } from './support/agent-support';
import { call } from './support/api-client';
import { withLoopLatency } from './support/hostile-fixtures';
import { type Platform, startStandalone } from './support/platform';

jest.setTimeout(240_000);

const html =
  (body: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
const PRODUCT = `<!doctype html><html><head><title>Trail Runner 3 | Summit Gear</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 3","brand":{"@type":"Brand","name":"Summit Gear"},"offers":{"@type":"Offer","price":"129.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}}</script></head>
<body><main><h1>Trail Runner 3</h1><p>The Trail Runner 3 is a lightweight trail shoe with a rock plate and a grippy outsole for wet rock.</p>
<p>Returns are free within 30 days of delivery, as long as the shoes are unworn.</p>
<p>Questions? Write to Jane Miller at jane.miller@summit.example or call (503) 555-0142.</p></main></body></html>`;

/** 90,000 distinct labelled values: reading them offline costs seconds of CPU. */
const WEIGHTS = `<!doctype html><html><head><title>Weights</title></head><body><main><h1>Weights</h1><dl>${Array.from(
  { length: 90_000 },
  (_, index) => `<dt>Weight ${index}</dt><dd>${index} g</dd>`,
).join('')}</dl></main></body></html>`;

describe('one-process mode (embedded PostgreSQL, in-memory bus) without a language model', () => {
  let platform: Platform;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({ '/shoe': html(PRODUCT), '/weights': html(WEIGHTS) });
    platform = await startStandalone();
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  it('answers every language-model format from its offline fallback and labels each one in warning', async () => {
    const response = await call<{ data: Record<string, unknown> }>(platform.url(), 'POST', '/v2/scrape', {
      apiKey: platform.apiKey,
      body: {
        url: `${site.url}/shoe`,
        formats: [
          'markdown',
          'summary',
          {
            type: 'json',
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                brand: { type: 'string' },
                price: { type: 'number' },
                currency: { type: 'string' },
                inStock: { type: 'boolean' },
              },
            },
          },
          { type: 'question', question: 'How long do I have to return the shoes?' },
          { type: 'highlights', query: 'returns policy' },
        ],
        redactPII: true,
      },
    });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data['json']).toEqual({
      name: 'Trail Runner 3',
      brand: 'Summit Gear',
      price: 129,
      currency: 'USD',
      inStock: true,
    });
    // The question format answers the value asked for (issue 15), not the whole sentence.
    expect(data['answer']).toBe('within 30 days');
    expect(data['highlights']).toContain('Returns are free');
    expect(data['summary']).toContain('Trail Runner 3');
    expect(data['markdown']).toContain('Write to [PERSON] at [EMAIL] or call [PHONE].');
    const warning = data['warning'] as string;
    for (const label of [
      'summary: no language model is configured',
      'json: no language model is configured',
      'answer: no language model',
      'highlights: no language model',
      'redactPII: no language model',
    ]) {
      expect(warning).toContain(label);
    }
  });

  it('runs an agent with the deterministic strategy, traced, in the same process', async () => {
    const started = await call<{ id: string }>(platform.url(), 'POST', '/v2/agent', {
      apiKey: platform.apiKey,
      body: {
        prompt: 'What does the Trail Runner 3 cost?',
        urls: [`${site.url}/shoe`],
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
      },
    });
    expect(started.status).toBe(200);
    const status = await waitForAgent(platform.url(), platform.apiKey, started.body.id);
    expect(status).toMatchObject({ status: 'completed', data: { name: 'Trail Runner 3', price: 129 } });
    const events = await traceOf(platform.url(), platform.apiKey, started.body.id);
    checkTraceInvariants(events, started.body.id);
    expect(
      events.some(
        (event) =>
          event.type === 'reasoning.summary' && String(event['text']).includes('deterministic strategy'),
      ),
    ).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
  });

  it("reads a run's pages offline in a content worker process: the server keeps answering meanwhile", async () => {
    const { result: status, loopMaxMs } = await withLoopLatency(platform.url(), async () => {
      const started = await call<{ id: string }>(platform.url(), 'POST', '/v2/agent', {
        apiKey: platform.apiKey,
        body: { prompt: 'How much does weight 89999 weigh?', urls: [`${site.url}/weights`] },
      });
      expect(started.status).toBe(200);
      return waitForAgent(platform.url(), platform.apiKey, started.body.id);
    });
    expect(status).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(status.data)).toContain(' g');
    // On the event loop the offline answer alone held it 12 s.
    expect(loopMaxMs).toBeLessThan(2_000);
  });
});
