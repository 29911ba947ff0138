import type { ScrapeDocument } from '@quarry/contracts';
import { gitDiff } from '@quarry/scrape/formats';

import type { PreviousPage } from '../monitor.types';
import { deterministicJudgment, goalTerms } from './change-judge';
import { jsonFieldDiff, parseGitDiff } from './page-diff.util';
import { pageFromDocument, summarise } from './page-results.util';
import { planTarget } from './target-plan';

const doc = (overrides: Partial<ScrapeDocument> & { statusCode?: number } = {}): ScrapeDocument => ({
  markdown: '# Page',
  metadata: {
    sourceURL: 'https://shop.example/item',
    url: 'https://shop.example/item',
    statusCode: overrides.statusCode ?? 200,
    scrapeId: 'scrape-2',
    title: 'Item',
  },
  ...overrides,
});
const previous = (snapshot: PreviousPage['snapshot'] = null): PreviousPage => ({
  urlKey: 'https://shop.example/item',
  url: 'https://shop.example/item',
  status: 'new',
  currentScrapeId: 'scrape-1',
  snapshot,
});

describe('pageFromDocument', () => {
  it('markdown targets: new on first sight, changed with the git diff and its parsed form', () => {
    const first = pageFromDocument(
      't1',
      doc({
        changeTracking: { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible', diff: null },
      }),
      undefined,
      'markdown',
    );
    expect(first).toMatchObject({
      status: 'new',
      previousScrapeId: null,
      currentScrapeId: 'scrape-2',
      diff: null,
      statusCode: 200,
    });
    const text = gitDiff('Price: $10\n', 'Price: $12\n');
    const changed = pageFromDocument(
      't1',
      doc({
        changeTracking: {
          previousScrapeAt: '2026-01-01T00:00:00Z',
          changeStatus: 'changed',
          visibility: 'visible',
          diff: text,
        },
      }),
      previous(),
      'markdown',
    );
    expect(changed.status).toBe('changed');
    expect(changed.previousScrapeId).toBe('scrape-1');
    expect(changed.diff?.text).toBe(text);
    expect(changed.diff?.json).toEqual({
      files: [
        expect.objectContaining({
          from: 'page.md',
          to: 'page.md',
          additions: 1,
          deletions: 1,
          chunks: [
            expect.objectContaining({
              changes: [
                { type: 'del', del: true, ln: 1, content: '-Price: $10' },
                { type: 'add', add: true, ln: 1, content: '+Price: $12' },
              ],
            }),
          ],
        }),
      ],
    });
  });

  it('a page seen before is new again after it was removed, and 404/410 means removed', () => {
    const same = { previousScrapeAt: null, changeStatus: 'same' as const, visibility: 'visible' as const };
    expect(
      pageFromDocument('t1', doc({ changeTracking: same }), { ...previous(), status: 'removed' }, 'markdown')
        .status,
    ).toBe('new');
    expect(pageFromDocument('t1', doc({ statusCode: 404 }), previous(), 'markdown').status).toBe('removed');
    expect(pageFromDocument('t1', doc({ statusCode: 500 }), previous(), 'markdown')).toMatchObject({
      status: 'error',
      error: 'HTTP 500',
    });
  });

  it('extraction targets compare the extraction field by field with the previous snapshot', () => {
    const first = pageFromDocument('t1', doc({ json: { name: 'Pro', price: 49 } }), undefined, 'extraction');
    expect(first).toMatchObject({ status: 'new', snapshot: { json: { name: 'Pro', price: 49 } } });
    const same = pageFromDocument(
      't1',
      doc({ json: { price: 49, name: 'Pro' } }),
      previous({ json: { name: 'Pro', price: 49 } }),
      'extraction',
    );
    expect(same.status).toBe('same');
    const changed = pageFromDocument(
      't1',
      doc({ json: { name: 'Pro', price: 59 } }),
      previous({ json: { name: 'Pro', price: 49 } }),
      'extraction',
    );
    expect(changed).toMatchObject({
      status: 'changed',
      diff: { json: { name: { previous: 'Pro', current: 'Pro' }, price: { previous: 49, current: 59 } } },
    });
    expect(changed.diff?.text).toBeUndefined();
  });

  it('summarises by status', () => {
    const pages = [
      pageFromDocument('t', doc(), undefined, 'markdown'),
      pageFromDocument('t', doc({ statusCode: 404 }), previous(), 'markdown'),
      pageFromDocument('t', doc({ statusCode: 503 }), undefined, 'markdown'),
    ];
    expect(summarise(pages)).toEqual({ totalPages: 3, same: 0, changed: 0, new: 1, removed: 1, error: 1 });
  });
});

describe('diff helpers', () => {
  it('parses a multi-hunk diff with line numbers', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 2', 'line two').replace('line 17', 'line seventeen');
    const parsed = parseGitDiff(gitDiff(before, after));
    expect(parsed.files[0].chunks).toHaveLength(2);
    expect(parsed.files[0].chunks[1].changes.find((change) => change.type === 'add')).toEqual({
      type: 'add',
      add: true,
      ln: 18,
      content: '+line seventeen',
    });
  });

  it('json field diff ignores key order and reports every field', () => {
    expect(jsonFieldDiff({ a: 1, b: { x: 1, y: 2 } }, { b: { y: 2, x: 1 }, a: 1 }).differs).toBe(false);
    expect(jsonFieldDiff({ a: 1 }, { a: 1, c: 3 })).toEqual({
      fields: { a: { previous: 1, current: 1 }, c: { previous: null, current: 3 } },
      differs: true,
    });
  });
});

describe('deterministic judge', () => {
  const diff = gitDiff(
    'Pro plan: $49 per month\nFounded in 2001\n',
    'Pro plan: $59 per month\nFounded in 2001\n',
  );

  it('extracts the goal terms', () => {
    expect(goalTerms('Tell me when the prices of the Pro plans change')).toEqual(['price', 'pro', 'plan']);
  });

  it('calls a change meaningful when it mentions a goal term, and says it is the offline judge', () => {
    const judgment = deterministicJudgment({
      teamId: 't',
      checkId: 'c',
      url: 'u',
      status: 'changed',
      goal: 'pricing of the Pro plan',
      diffText: diff,
    });
    expect(judgment.meaningful).toBe(true);
    expect(judgment.confidence).toBe('low');
    expect(judgment.reason).toMatch(/^Deterministic judge \(no language model\)/);
    expect(judgment.meaningfulChanges).toContainEqual({
      type: 'added',
      before: null,
      after: 'Pro plan: $59 per month',
      reason: 'mentions "pro", "plan"',
    });
  });

  it('is not meaningful when the change is off-goal, or too small without a goal', () => {
    expect(
      deterministicJudgment({
        teamId: 't',
        checkId: 'c',
        url: 'u',
        status: 'changed',
        goal: 'job openings',
        diffText: diff,
      }).meaningful,
    ).toBe(false);
    const tiny = gitDiff('Visitors: 10\n', 'Visitors: 11\n');
    expect(
      deterministicJudgment({
        teamId: 't',
        checkId: 'c',
        url: 'u',
        status: 'changed',
        goal: null,
        diffText: tiny,
      }).meaningful,
    ).toBe(false);
    expect(
      deterministicJudgment({
        teamId: 't',
        checkId: 'c',
        url: 'u',
        status: 'changed',
        goal: null,
        diffText: diff,
      }).meaningful,
    ).toBe(false);
    const big = gitDiff('Intro\n', 'Intro\nWe opened a new office in Lisbon this spring.\n');
    expect(
      deterministicJudgment({
        teamId: 't',
        checkId: 'c',
        url: 'u',
        status: 'changed',
        goal: null,
        diffText: big,
      }).meaningful,
    ).toBe(true);
  });
});

describe('planTarget', () => {
  it('adds markdown and the monitor-tagged change tracking, and never reads the cache', () => {
    const plan = planTarget('m1', {
      id: 'a',
      type: 'scrape',
      urls: ['https://a.example/'],
      scrapeOptions: { formats: ['links'] },
    });
    expect(plan.mode).toBe('markdown');
    expect(plan.batch?.formats.map((format) => format.type)).toEqual(['markdown', 'links', 'changeTracking']);
    expect(plan.batch?.formats[2]).toEqual({
      type: 'changeTracking',
      modes: ['git-diff'],
      tag: 'monitor:m1:a',
    });
    expect(plan.batch).toMatchObject({ maxAge: 0, storeInCache: false });
    expect(plan.pageCredits).toBe(1);
  });

  it('recognises extraction, mixed and tracked-json targets and prices them', () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } } };
    expect(
      planTarget('m', {
        id: 'x',
        type: 'scrape',
        urls: ['https://a.example/'],
        scrapeOptions: { formats: [{ type: 'json', schema }] },
      }),
    ).toMatchObject({ mode: 'extraction', pageCredits: 5 });
    expect(
      planTarget('m', {
        id: 'x',
        type: 'scrape',
        urls: ['https://a.example/'],
        scrapeOptions: {
          formats: [
            { type: 'deterministicJson', schema },
            { type: 'changeTracking', modes: ['git-diff'] },
            'markdown',
          ],
        },
      }).mode,
    ).toBe('mixed');
    const tracked = planTarget('m', {
      id: 'x',
      type: 'scrape',
      urls: ['https://a.example/'],
      scrapeOptions: {
        formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema, tag: 'mine' }],
      },
    });
    expect(tracked.mode).toBe('trackedJson');
    expect(tracked.batch?.formats[1]).toEqual({
      type: 'changeTracking',
      modes: ['json', 'git-diff'],
      schema,
      tag: 'monitor:m:x',
    });
  });

  it('crawl targets default to 100 pages; search targets search every query', () => {
    const crawl = planTarget('m', {
      id: 'c',
      type: 'crawl',
      url: 'https://a.example/docs',
      crawlOptions: { includePaths: ['^/docs'] },
    });
    expect(crawl.crawl).toMatchObject({
      url: 'https://a.example/docs',
      limit: 100,
      includePaths: ['^/docs'],
    });
    expect(crawl.estimatedCredits).toBe(100);
    const search = planTarget('m', {
      id: 's',
      type: 'search',
      queries: ['acme pricing', 'acme news'],
      searchWindow: '7d',
      maxResults: 5,
    });
    expect(search.searches?.map((request) => [request.query, request.limit, request.tbs])).toEqual([
      ['acme pricing', 5, 'qdr:w'],
      ['acme news', 5, 'qdr:w'],
    ]);
    expect(search.estimatedCredits).toBe(2 * 2 + 2 * 5);
  });

  it('refuses options change tracking cannot work with', () => {
    expect(() =>
      planTarget('m', {
        id: 'x',
        type: 'scrape',
        urls: ['https://a.example/'],
        scrapeOptions: { lockdown: true },
      }),
    ).toThrow(/lockdown/);
  });
});
