import { collectionIds, idempotencyKey, started, type TargetState } from './target-state.util';

describe('target state', () => {
  it('knows when a target has started its work', () => {
    expect(started({ targetId: 't', type: 'scrape' } as TargetState)).toBe(false);
    expect(started({ targetId: 't', type: 'scrape', batchId: 'b' } as TargetState)).toBe(true);
    expect(started({ targetId: 't', type: 'crawl', crawlId: 'c' } as TargetState)).toBe(true);
    expect(
      started({ targetId: 't', type: 'search', searchCompleted: true, resultUrls: ['u'] } as TargetState),
    ).toBe(false);
    // A search that found nothing has nothing to scrape.
    expect(
      started({ targetId: 't', type: 'search', searchCompleted: true, resultUrls: [] } as TargetState),
    ).toBe(true);
  });

  it('lists the collections a target waits for', () => {
    expect(collectionIds({ targetId: 't', type: 'crawl', crawlId: 'c' } as TargetState)).toEqual(['c']);
    expect(collectionIds({ targetId: 't', type: 'search', batchId: 'b' } as TargetState)).toEqual(['b']);
    expect(collectionIds({ targetId: 't', type: 'scrape' } as TargetState)).toEqual([]);
  });

  it('derives one stable UUID per check, target and purpose', () => {
    const key = idempotencyKey('check-1', 'target-1', 'batch');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey('check-1', 'target-1', 'batch')).toBe(key);
    expect(idempotencyKey('check-1', 'target-1', 'results')).not.toBe(key);
    expect(idempotencyKey('check-2', 'target-1', 'batch')).not.toBe(key);
  });
});
