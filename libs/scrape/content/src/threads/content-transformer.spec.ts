import { InlineContentTransformer, ThreadedContentTransformer } from './content-transformer';

const PAGE = `<!doctype html><html lang="de"><head><meta charset="windows-1252"><title>Fahrr\xe4der</title>
<meta name="description" content="Alles \xfcber Fahrr\xe4der"></head><body><nav><a href="/">Start</a></nav>
<main><article><h1>Fahrr\xe4der</h1><p>Ein Fahrrad hat zwei R\xe4der und wird mit Muskelkraft angetrieben.</p>
<p>Mehr dazu im <a href="/lexikon">Lexikon</a>.</p><table><tr><th>Typ</th><th>Preis</th></tr><tr><td>City</td><td>499</td></tr></table>
</article></main><footer>Impressum</footer></body></html>`;

describe('ThreadedContentTransformer (real worker threads)', () => {
  const sut = new ThreadedContentTransformer({ threads: 2, memoryMb: 256 });
  afterAll(() => sut.close());

  it('decodes and transforms pages in its threads exactly as on the calling thread', async () => {
    const input = {
      body: Buffer.from(PAGE, 'latin1'),
      url: 'https://shop.example/rad',
      contentType: 'text/html',
      keepText: true,
    };
    const options = { onlyMainContent: true, removeBase64Images: true };
    const formats = ['markdown', 'html', 'links', 'images'] as const;
    const deadline = Date.now() + 30_000;
    const threaded = await sut.transform(input, formats, options, deadline);
    expect(threaded.markdown).toContain('Ein Fahrrad hat zwei Räder');
    expect(threaded.markdown).toContain('| City | 499 |');
    expect(threaded.links).toEqual(['https://shop.example/lexikon']);
    expect(threaded.text).toContain('<title>Fahrräder</title>');
    expect(threaded.metadata).toMatchObject({ title: 'Fahrräder', language: 'de' });
    expect(threaded).toEqual(await new InlineContentTransformer().transform(input, formats, options));
    // several pages at once, over both threads
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
    expect(many.every((page) => page.markdown === threaded.markdown)).toBe(true);
  });
});
