import {
  createMonitorSchema,
  monitorCheckDetailQuerySchema,
  updateMonitorSchema,
} from './monitor-request.schema';

const valid = {
  name: 'Pricing',
  schedule: { cron: '0 * * * *' },
  targets: [{ type: 'scrape', urls: ['https://a.example/'] }],
};

describe('monitor contracts', () => {
  it('accepts the SDK body with origin and fills defaults', () => {
    const parsed = createMonitorSchema.parse({ ...valid, origin: 'js-sdk@4.42.0' });
    expect(parsed).toMatchObject({
      origin: 'js-sdk@4.42.0',
      retentionDays: 30,
      schedule: { cron: '0 * * * *', timezone: 'UTC' },
    });
  });

  it('rejects unknown keys at every level', () => {
    expect(createMonitorSchema.safeParse({ ...valid, bogus: 1 }).success).toBe(false);
    expect(
      createMonitorSchema.safeParse({ ...valid, schedule: { cron: '0 * * * *', every: 'hour' } }).success,
    ).toBe(false);
    expect(
      createMonitorSchema.safeParse({
        ...valid,
        targets: [{ type: 'scrape', urls: ['https://a.example/'], extra: true }],
      }).success,
    ).toBe(false);
    expect(
      createMonitorSchema.safeParse({
        ...valid,
        targets: [{ type: 'search', queries: ['q'], scrapeOptions: {} }],
        goal: 'g',
      }).success,
    ).toBe(false);
  });

  it('needs exactly one of cron and text, 1..50 targets, a goal for search targets unless the judge is off', () => {
    expect(createMonitorSchema.safeParse({ ...valid, schedule: { timezone: 'UTC' } }).success).toBe(false);
    expect(
      createMonitorSchema.safeParse({ ...valid, schedule: { cron: '0 * * * *', text: 'hourly' } }).success,
    ).toBe(false);
    expect(createMonitorSchema.safeParse({ ...valid, targets: [] }).success).toBe(false);
    const search = { ...valid, targets: [{ type: 'search', queries: ['acme'] }] };
    expect(createMonitorSchema.safeParse(search).success).toBe(false);
    expect(createMonitorSchema.safeParse({ ...search, judgeEnabled: false }).success).toBe(true);
    expect(createMonitorSchema.parse({ ...search, goal: 'prices' }).targets[0]).toEqual({
      type: 'search',
      queries: ['acme'],
      searchWindow: '24h',
      maxResults: 10,
    });
  });

  it('lets PATCH clear webhook, notification and goal, and change status', () => {
    expect(
      updateMonitorSchema.parse({ webhook: null, notification: null, goal: null, status: 'paused' }),
    ).toMatchObject({ webhook: null, notification: null, goal: null, status: 'paused' });
    expect(updateMonitorSchema.safeParse({ status: 'deleted' }).success).toBe(false);
  });

  it('coerces check detail paging from the query string', () => {
    expect(monitorCheckDetailQuerySchema.parse({ limit: '2', skip: '4', status: 'changed' })).toEqual({
      limit: 2,
      skip: 4,
      status: 'changed',
    });
    expect(monitorCheckDetailQuerySchema.safeParse({ status: 'gone' }).success).toBe(false);
  });
});
