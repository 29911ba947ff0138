import { type ScrapeDocument, scrapeRequestSchema } from '@quarry/contracts';
import type { FetchedPage } from '@quarry/scrape/engine';
import type { ChangeSnapshot, ChangeSnapshotRepository, SnapshotKey } from '@quarry/scrape/state';

import { ChangeTrackingEnricher } from './change-tracking.enricher';
import { type ChangeTrackingModel, ChangeTrackingModels } from './change-tracking-models';

class MemorySnapshots {
  readonly rows = new Map<string, ChangeSnapshot>();
  private id = (key: SnapshotKey) => `${key.teamId}|${key.urlKey}|${key.tag ?? ''}`;
  async find(key: SnapshotKey) {
    return this.rows.get(this.id(key));
  }
  async save(key: SnapshotKey, snapshot: ChangeSnapshot) {
    this.rows.set(this.id(key), snapshot);
  }
}

const html = (price: number, text: string) =>
  `<html><body><p>${text}</p><script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"price":"${price}"}}</script></body></html>`;
const page = (body: string, status = 200): FetchedPage => ({
  engine: 'http',
  url: 'https://shop.test/lamp',
  status,
  headers: {},
  contentType: 'text/html',
  body: Buffer.from(body),
});
const document = (markdown: string, status = 200): ScrapeDocument => ({
  markdown,
  metadata: { sourceURL: 'https://shop.test/lamp', url: 'https://shop.test/lamp', statusCode: status },
});
const schema = { type: 'object', properties: { price: { type: 'number' }, colour: { type: 'string' } } };
const request = scrapeRequestSchema.parse({
  url: 'https://shop.test/lamp',
  formats: ['markdown', { type: 'changeTracking', modes: ['json', 'git-diff'], schema }],
});
const context = (fetched: FetchedPage) => ({
  jobId: 'j',
  teamId: 't',
  signal: new AbortController().signal,
  timeoutMs: 1_000,
  page: fetched,
});

describe('ChangeTrackingEnricher', () => {
  it('compares json values from structured data and says which fields need a model', async () => {
    const sut = new ChangeTrackingEnricher(
      new MemorySnapshots() as unknown as ChangeSnapshotRepository,
      new ChangeTrackingModels(),
    );
    const first = document('Lamp, first text');
    await sut.enrich(first, request, context(page(html(10, 'first text'))));
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', json: null, diff: null });

    const second = document('Lamp, second text');
    await sut.enrich(second, request, context(page(html(12, 'second text'))));
    expect(second.changeTracking?.changeStatus).toBe('changed');
    expect(second.changeTracking?.json).toEqual({ price: { previous: 10, current: 12 } });
    expect(second.warning).toMatch(/colour could not be read/);
  });

  it('asks a registered model for the fields structured data does not state', async () => {
    const models = new ChangeTrackingModels();
    const model: ChangeTrackingModel = {
      extractFields: jest.fn(async ({ markdown }) => ({ colour: markdown.includes('red') ? 'red' : 'blue' })),
      summarizeChange: jest.fn(),
    };
    models.register(model);
    const sut = new ChangeTrackingEnricher(
      new MemorySnapshots() as unknown as ChangeSnapshotRepository,
      models,
    );
    await sut.enrich(document('A red lamp'), request, context(page(html(10, 'red'))));
    const next = document('A blue lamp');
    await sut.enrich(next, request, context(page(html(10, 'blue'))));
    expect(next.changeTracking?.json).toEqual({
      price: { previous: 10, current: 10 },
      colour: { previous: 'red', current: 'blue' },
    });
    expect(next.warning).toBeUndefined();
    expect(model.extractFields).toHaveBeenCalledWith(expect.objectContaining({ fields: ['colour'], schema }));
  });

  it('reports a gone page as removed, and its return as new; zero data retention stores nothing', async () => {
    const snapshots = new MemorySnapshots();
    const sut = new ChangeTrackingEnricher(
      snapshots as unknown as ChangeSnapshotRepository,
      new ChangeTrackingModels(),
    );
    await sut.enrich(document('here'), request, context(page(html(1, 'here'))));
    const gone = document('', 404);
    await sut.enrich(gone, request, context(page('<h1>Not found</h1>', 404)));
    expect(gone.changeTracking?.changeStatus).toBe('removed');
    const back = document('here');
    await sut.enrich(back, request, context(page(html(1, 'here'))));
    expect(back.changeTracking?.changeStatus).toBe('new');

    const zdr = { ...request, zeroDataRetention: true };
    const before = [...snapshots.rows.values()].map((row) => row.scrapedAt.getTime());
    await sut.enrich(document('changed under zdr'), zdr, context(page(html(1, 'changed'))));
    expect([...snapshots.rows.values()].map((row) => row.scrapedAt.getTime())).toEqual(before);
  });
});
