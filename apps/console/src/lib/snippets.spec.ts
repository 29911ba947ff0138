import { curlSnippet, jsSnippet, pythonLiteral, pythonSnippet } from './snippets';

const origin = 'http://localhost:3002';

describe('snippets', () => {
  const scrape = {
    operation: 'scrape' as const,
    origin,
    body: {
      url: "https://example.com/it's",
      formats: ['markdown', 'links'],
      onlyMainContent: true,
      location: { country: 'DE' },
    },
  };

  it('prints curl with the JSON body, reading the key from the environment', () => {
    const curl = curlSnippet(scrape);
    expect(curl).toContain(`curl -X POST 'http://localhost:3002/v2/scrape'`);
    expect(curl).toContain('-H "Authorization: Bearer $QUARRY_API_KEY"');
    expect(curl).toContain(`"url": "https://example.com/it'\\''s"`);
    expect(
      curlSnippet({
        operation: 'parse',
        origin,
        body: { parsers: [{ type: 'pdf', mode: 'fast' }] },
        fileName: 'a b.pdf',
      }),
    ).toContain(`-F 'file=@a b.pdf'`);
  });

  it('prints JS SDK calls with the URL first and options after', () => {
    const js = jsSnippet(scrape);
    expect(js).toContain(
      'const app = new Firecrawl({ apiKey: process.env.QUARRY_API_KEY, apiUrl: "http://localhost:3002" });',
    );
    expect(js).toContain(
      'app.scrape("https://example.com/it\'s", {\n  formats: ["markdown", "links"],\n  onlyMainContent: true,\n  location: {\n    country: "DE",\n  },\n})',
    );
    expect(
      jsSnippet({ operation: 'batch', origin, body: { urls: ['https://a.example'], formats: ['markdown'] } }),
    ).toContain(
      'app.startBatchScrape(["https://a.example"], {\n  options: {\n    formats: ["markdown"],\n  },\n})',
    );
    expect(jsSnippet({ operation: 'search', origin, body: { query: 'quarry', limit: 5 } })).toContain(
      'app.search("quarry", {\n  limit: 5,\n})',
    );
    expect(jsSnippet({ operation: 'crawl', origin, body: { url: 'https://a.example' } })).toContain(
      'app.startCrawl("https://a.example")',
    );
  });

  it('prints Python SDK calls with snake_case keyword arguments and Python literals', () => {
    const python = pythonSnippet(scrape);
    expect(python).toContain(
      'app = Firecrawl(api_key=os.environ["QUARRY_API_KEY"], api_url="http://localhost:3002")',
    );
    expect(python).toContain('only_main_content=True');
    expect(python).toContain('location={\n        "country": "DE",\n    },');
    expect(pythonLiteral({ a: null, b: [false, 1.5], c: 'x"y' })).toBe(
      '{\n    "a": None,\n    "b": [False, 1.5],\n    "c": "x\\"y",\n}',
    );
    expect(pythonSnippet({ operation: 'parse', origin, body: {}, fileName: 'report.pdf' })).toContain(
      'files={"file": ("report.pdf", file)}',
    );
  });

  it('never prints a key', () => {
    for (const snippet of [curlSnippet(scrape), jsSnippet(scrape), pythonSnippet(scrape)])
      expect(snippet).not.toMatch(/fc-[0-9a-f]{8}/);
  });
});
