import { scrapeRequestSchema } from '@quarry/contracts';
import type { ContentTransformer } from '@quarry/scrape/content';

import { buildDocument } from './document-builder';
import type { FetchedPage } from './engine.types';

describe('buildDocument on binary media', () => {
  // A PNG starts with bytes that, decoded as text, give NUL characters a database refuses to store.
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const page: FetchedPage = {
    engine: 'http',
    url: 'http://site.test/a.png',
    status: 200,
    headers: {},
    contentType: 'image/png',
    body: png,
  };
  const untouched: ContentTransformer = {
    transform: () => Promise.reject(new Error('binary bytes must not reach the text pipeline')),
    runTask: () => Promise.reject(new Error('no page task runs on a binary document')),
    close: () => Promise.resolve(),
  };
  const sut = (formats: unknown[]) =>
    buildDocument(
      page,
      scrapeRequestSchema.parse({ url: page.url, formats }),
      'job-1',
      untouched,
      Date.now() + 5_000,
    );

  it('answers empty text formats with a warning naming the image parser', async () => {
    const document = await sut(['markdown', 'html', 'links', 'images']);
    expect(document).toMatchObject({ markdown: '', html: '', links: [], images: [page.url] });
    expect(document.metadata).toMatchObject({
      contentType: 'image/png',
      statusCode: 200,
      sourceURL: page.url,
    });
    expect(document.warning).toMatch(/image parser was not requested/);
    expect(JSON.stringify(document)).not.toContain('\\u0000');
  });

  it('still returns the file itself as rawBase64, without a warning', async () => {
    const document = await sut(['rawBase64']);
    expect(document.rawBase64).toBe(png.toString('base64'));
    expect(document.warning).toBeUndefined();
  });
});
