import { errorBodySchema } from '../errors/error-body';
import { scrapeResponseSchema } from './document.schema';

describe('response contracts', () => {
  const metadata = {
    sourceURL: 'https://a.example/?x=1',
    url: 'https://a.example/',
    statusCode: 200,
    'og:type': 'article',
    viewport: 'width=device-width',
  };

  it('accepts a scrape answer with formats, PDF blocks, change tracking and any extra meta tag', () => {
    const answer = {
      success: true,
      data: {
        markdown: '# Hi',
        links: ['https://a.example/b'],
        changeTracking: { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' },
        pages: [{ pageNumber: 1, markdown: '# Hi' }],
        blocks: [
          {
            pageNumber: 1,
            width: 612,
            height: 792,
            status: 'ok',
            items: [
              {
                id: 'p1.b0',
                type: 'a_future_block_type',
                label: null,
                bbox: [0.1, 0.1, 0.9, 0.2],
                content: '# Hi',
                markdownSpan: [0, 4],
                readingOrder: 0,
                source: 'native_text',
                confidence: { layout: null, ocr: null },
              },
            ],
          },
        ],
        metadata,
      },
    };
    expect(scrapeResponseSchema.parse(answer)).toEqual(answer);
  });

  it('refuses answers that break the spec: no metadata, a malformed block id, an unknown change status', () => {
    expect(scrapeResponseSchema.safeParse({ success: true, data: {} }).success).toBe(false);
    const block = {
      id: 'b0',
      type: 'text',
      label: null,
      bbox: null,
      content: '',
      markdownSpan: null,
      readingOrder: 0,
      source: null,
      confidence: { layout: null, ocr: null },
    };
    const withBlock = {
      success: true,
      data: {
        metadata,
        blocks: [{ pageNumber: 1, width: null, height: null, status: 'ok', items: [block] }],
      },
    };
    expect(scrapeResponseSchema.safeParse(withBlock).success).toBe(false);
    const changed = {
      success: true,
      data: {
        metadata,
        changeTracking: { previousScrapeAt: null, changeStatus: 'moved', visibility: 'visible' },
      },
    };
    expect(scrapeResponseSchema.safeParse(changed).success).toBe(false);
  });

  it('describes the error body (docs/compatibility.md#errors)', () => {
    expect(
      errorBodySchema.safeParse({ success: false, error: 'Rate limit exceeded', retry_after_seconds: 3 })
        .success,
    ).toBe(true);
    expect(
      errorBodySchema.safeParse({
        success: false,
        error: 'x',
        code: 'SCRAPE_TIMEOUT',
        details: [{ path: ['url'] }],
      }).success,
    ).toBe(true);
    expect(errorBodySchema.safeParse({ error: 'x' }).success).toBe(false);
    expect(errorBodySchema.safeParse({ success: true, error: 'x' }).success).toBe(false);
  });
});
