import { AppError } from '@quarry/contracts';

import { InlineContentTransformer, WorkerContentTransformer } from './content-transformer';

const PAGE = `<!doctype html><html lang="de"><head><meta charset="windows-1252"><title>Fahrr\xe4der</title>
<meta name="description" content="Alles \xfcber Fahrr\xe4der"></head><body><nav><a href="/">Start</a></nav>
<main><article><h1>Fahrr\xe4der</h1><p>Ein Fahrrad hat zwei R\xe4der und wird mit Muskelkraft angetrieben.</p>
<p>Mehr dazu im <a href="/lexikon">Lexikon</a>.</p><table><tr><th>Typ</th><th>Preis</th></tr><tr><td>City</td><td>499</td></tr></table>
</article></main><footer>Impressum</footer></body></html>`;

const input = {
  body: Buffer.from(PAGE, 'latin1'),
  url: 'https://shop.example/rad',
  contentType: 'text/html',
  keepText: true,
};
const options = { onlyMainContent: true, removeBase64Images: true };
const limits = { maxElements: 5_000, maxLinks: 1_000 };

describe('WorkerContentTransformer (real worker processes)', () => {
  const sut = new WorkerContentTransformer({ workers: 2, memoryMb: 128, limits });
  afterAll(() => sut.close());

  it('decodes and transforms pages in its processes exactly as on the calling thread', async () => {
    const formats = ['markdown', 'html', 'links', 'images'] as const;
    const deadline = Date.now() + 30_000;
    const pooled = await sut.transform(input, formats, options, deadline);
    expect(pooled.markdown).toContain('Ein Fahrrad hat zwei Räder');
    expect(pooled.markdown).toContain('| City | 499 |');
    expect(pooled.links).toEqual(['https://shop.example/lexikon']);
    expect(pooled.text).toContain('<title>Fahrräder</title>');
    expect(pooled.metadata).toMatchObject({ title: 'Fahrräder', language: 'de' });
    expect(pooled).toEqual(await new InlineContentTransformer(limits).transform(input, formats, options));
    const many = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        sut.transform(
          { ...input, url: `https://shop.example/rad/${index}` },
          ['markdown'],
          options,
          deadline,
        ),
      ),
    );
    expect(many.every((page) => page.markdown === pooled.markdown)).toBe(true);
    expect(sut.pids().every((pid) => pid !== process.pid)).toBe(true);
  }, 60_000);

  it('refuses a page past its limits with 422 naming the count, and serves the next page', async () => {
    const links = `<html><body>${'<a href="/x">x</a>'.repeat(1_500)}</body></html>`;
    const refused = await sut
      .transform(
        { text: links, url: 'https://shop.example/links' },
        ['markdown'],
        options,
        Date.now() + 30_000,
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'SCRAPE_PAGE_TOO_LARGE',
      message: 'page too large to process: 1,500 links (limit 1,000, MAX_PAGE_LINKS)',
    });
    const inline = await new InlineContentTransformer(limits)
      .transform({ text: links, url: 'https://shop.example/links' }, ['markdown'], options)
      .catch((error: unknown) => error);
    expect(inline).toMatchObject({ code: 'SCRAPE_PAGE_TOO_LARGE' });
    expect((await sut.transform(input, ['markdown'], options, Date.now() + 30_000)).markdown).toContain(
      'Räder',
    );
  }, 60_000);

  it('answers 422 for a page that exhausts a worker, which alone dies and is replaced', async () => {
    const big = new WorkerContentTransformer({
      workers: 1,
      memoryMb: 64,
      limits: { maxElements: 10_000_000, maxLinks: 10_000_000 },
    });
    try {
      const hostile = `<html><body>${'<div><span>x</span></div>'.repeat(400_000)}</body></html>`;
      const failed = await big
        .transform(
          { text: hostile, url: 'https://shop.example/huge' },
          ['markdown'],
          options,
          Date.now() + 60_000,
        )
        .catch((error: unknown) => error);
      expect(failed).toMatchObject({ code: 'SCRAPE_PAGE_TOO_LARGE' });
      expect((failed as Error).message).toContain('needed more memory than a content worker may use');
      expect((await big.transform(input, ['markdown'], options, Date.now() + 30_000)).markdown).toContain(
        'Räder',
      );
    } finally {
      await big.close();
    }
  }, 90_000);
});
