import {
  type Body,
  BROWSER,
  crawl,
  crawlRefused,
  DECODED,
  expectText,
  type HostileCase,
  HTTP,
  markdown,
  siteScrape,
  TOO_LARGE_ELEMENTS,
  TOO_LARGE_LINKS,
} from './hostile-case-kit';

/**
 * The event-loop bound of a case whose answer is 10–20 MB: the server decodes it from the content
 * worker, stores it (PGlite runs on this thread in one process) and collects the garbage — about
 * 1.2 s in one piece on the 2-core development machine (profiled), in proportion to the answer's
 * size, whatever the page's markup costs.
 */
const BIG_ANSWER_LOOP_MS = 4_000;

/** Hostile pages: too large for a DOM, pathological markup, bodies that never end, compression bombs. */
export const PAGE_CASES: HostileCase[] = [
  // --- pages too large to build a DOM for (MAX_PAGE_LINKS / MAX_PAGE_ELEMENTS) ---
  {
    name: '400k links, HTTP engine',
    category: 'page size',
    run: siteScrape('/links'),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_LINKS },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '800k flat divs, HTTP engine',
    category: 'page size',
    run: siteScrape('/divs'),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_ELEMENTS },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    // The browser path counts the document before Chromium is given it (DocumentSizeGuard): refused
    // like the HTTP path, where it used to take Chromium's renderer to 11.7 GB before the timeout.
    name: '400k links, browser (waitFor)',
    category: 'page size',
    run: siteScrape('/links', { waitFor: 100, timeout: 20_000 }),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_LINKS },
    rssBoundMib: BROWSER,
    timeBoundMs: 25_000,
  },
  {
    name: '800k flat divs, browser (waitFor)',
    category: 'page size',
    run: siteScrape('/divs', { waitFor: 100, timeout: 20_000 }),
    expect: { status: 422, code: 'SCRAPE_SITE_ERROR', error: TOO_LARGE_ELEMENTS },
    rssBoundMib: BROWSER,
    timeBoundMs: 25_000,
  },
  {
    name: '400k links, crawl',
    category: 'page size',
    run: crawl('/links'),
    expect: { status: 200, check: crawlRefused('SCRAPE_PAGE_TOO_LARGE', TOO_LARGE_LINKS) },
    rssBoundMib: HTTP,
    timeBoundMs: 60_000,
  },
  {
    name: '800k flat divs, crawl',
    category: 'page size',
    run: crawl('/divs'),
    expect: { status: 200, check: crawlRefused('SCRAPE_PAGE_TOO_LARGE', TOO_LARGE_ELEMENTS) },
    rssBoundMib: HTTP,
    timeBoundMs: 60_000,
  },
  // --- pathological markup that is handled ---
  {
    // Linear since the parser's stack of open elements is bounded (12 s for 150k levels before).
    name: '100k nested divs',
    category: 'deep nesting',
    run: siteScrape('/deep', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'the bottom of the well') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: '10 MB attribute',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-attribute', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'after the attribute') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    // Was quadratic (a duplicate check per attribute): about 50 s of a content worker's CPU.
    name: '200,000 attributes on one tag',
    category: 'huge node',
    run: siteScrape('/many-attributes', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'after the attributes') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    // The JavaScript-need check on the HTTP engine read from every `<` to the one `>`: 20,000 of
    // them held the event loop of the process running the scrape 9.9 s, 100,000 for minutes.
    name: '100,000 tags sharing one >',
    category: 'huge node',
    run: siteScrape('/shared-tag-end', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'after the openers') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    // A 700-byte page: the JavaScript-need check's empty-root pattern backtracked through every way
    // of splitting 60 comments, and the process running the scrape never answered again.
    name: 'application root of 60 comments and a paragraph',
    category: 'huge node',
    run: siteScrape('/root-comments', { timeout: 30_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'after the comments') },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 45_000,
  },
  {
    name: '20 MB text node',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-text', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer).slice(0, 1_000), 'word word') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
    loopBoundMs: BIG_ANSWER_LOOP_MS,
  },
  {
    name: '5 MB <title> and meta description',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/huge-title', { timeout: 15_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'giant title') },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'invalid UTF-8 sequences',
    category: 'bytes',
    run: siteScrape('/invalid-utf8'),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), /before .* after/) },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'NUL bytes in the page',
    category: 'bytes',
    // NUL bytes in the first 4 KiB make a body binary (WHATWG sniffing): no text, a warning, still a page
    run: siteScrape('/nul-bytes'),
    expect: {
      status: 200,
      metadataStatus: 200,
      check: (answer) => {
        if (markdown(answer) !== '') throw new Error('binary bytes were decoded as text');
        expectText(
          String((answer.body['data'] as Body)['warning']),
          /binary file \(text\/html\): no text was extracted/,
        );
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '0-byte body',
    category: 'bytes',
    run: siteScrape('/empty'),
    expect: { status: 200, metadataStatus: 200 },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: '2 MB of binary served as text/html',
    category: 'bytes',
    run: siteScrape('/binary-as-html'),
    expect: { status: 200, metadataStatus: 200 },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'SVG billion laughs (page)',
    category: 'entity expansion',
    run: siteScrape('/svg-laughs'),
    expect: {
      status: 200,
      check: (answer) => {
        if (markdown(answer).includes('lollollol')) throw new Error('entities were expanded');
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'XML billion laughs (page)',
    category: 'entity expansion',
    run: siteScrape('/xml-laughs'),
    expect: {
      status: 200,
      check: (answer) => {
        if (markdown(answer).includes('lollollol')) throw new Error('entities were expanded');
      },
    },
    credits: 1,
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'SVG billion laughs, browser',
    category: 'entity expansion',
    run: siteScrape('/svg-laughs', { waitFor: 100 }),
    expect: { status: 200 },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  {
    name: 'PNG declaring 100000×100000 (page)',
    category: 'absurd image',
    run: siteScrape('/absurd.png'),
    expect: { status: 422, code: 'DOCUMENT_INVALID', error: /^The image could not be read/ },
    rssBoundMib: HTTP,
    timeBoundMs: 30_000,
  },
  {
    name: 'page embedding the 100000×100000 PNG, browser + screenshot',
    category: 'absurd image',
    run: siteScrape('/absurd-image-page', { formats: ['markdown', 'screenshot'], timeout: 30_000 }),
    expect: { status: 200, check: (answer) => expectText(markdown(answer), 'absurd size') },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 30_000,
  },
  // --- bodies that never end or arrive too slowly ---
  {
    // whichever comes first on a loaded machine: MAX_RESPONSE_BYTES or the request's timeout
    name: 'endless chunked body',
    orTimeout: true,
    category: 'endless body',
    run: siteScrape('/endless', { timeout: 15_000 }),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /MAX_RESPONSE_BYTES/ },
    rssBoundMib: HTTP,
    timeBoundMs: 25_000,
  },
  {
    name: 'trickling body (1 byte / 500 ms)',
    category: 'slow body',
    run: siteScrape('/trickle', { timeout: 3_000 }),
    expect: { status: 408, code: 'SCRAPE_TIMEOUT', error: /^Request Timeout/ },
    rssBoundMib: HTTP,
    timeBoundMs: 8_000,
  },
  {
    name: 'trickling body, browser',
    category: 'slow body',
    run: siteScrape('/trickle', { timeout: 4_000, waitFor: 100 }),
    expect: { status: 408, code: 'SCRAPE_TIMEOUT', error: /^Request Timeout/ },
    rssBoundMib: BROWSER,
    timeBoundMs: 10_000,
  },
  // --- compression bombs on every encoding accepted (1 GiB decoded) ---
  ...(['gzip', 'deflate', 'br'] as const).map((encoding): HostileCase => ({
    name: `${encoding} bomb (1 GiB)`,
    category: 'compression bomb',
    run: siteScrape(`/${encoding}`),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED(encoding) },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  })),
  {
    name: 'gzip, gzip bomb (1 GiB)',
    category: 'compression bomb',
    run: siteScrape('/gzip-gzip'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED('gzip, gzip') },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    name: 'zstd bomb (not offered)',
    category: 'compression bomb',
    run: siteScrape('/zstd'),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: /Content-Encoding zstd, which was not offered/ },
    rssBoundMib: HTTP,
    timeBoundMs: 20_000,
  },
  {
    // The document is read decoded, a chunk at a time, before Chromium gets it; reading stops at
    // MAX_RESPONSE_BYTES, as on the HTTP path.
    name: 'gzip bomb, browser',
    category: 'compression bomb',
    run: siteScrape('/gzip', { waitFor: 100, timeout: 15_000 }),
    expect: { status: 500, code: 'SCRAPE_SITE_ERROR', error: DECODED('gzip') },
    rssBoundMib: BROWSER,
    timeBoundMs: 20_000,
  },
];

/**
 * Pages whose handling leaves a large heap resident for a while (V8 returns memory lazily): run after
 * every other case, so that it does not count against the memory bound of the next one.
 */
export const LAST_PAGE_CASES: HostileCase[] = [
  {
    // Each value was searched for in the page's whole text (98 s of one event loop: the whole
    // one-process server stopped answering); the answer now comes from a content worker.
    name: '90,000 distinct labelled values, question format',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/many-distinct-facts', {
      formats: [{ type: 'question', question: 'How much does it weigh?' }],
      timeout: 60_000,
    }),
    expect: { status: 200, check: (answer) => expectText(JSON.stringify(answer.body), ' g') },
    credits: 5,
    rssBoundMib: BROWSER,
    timeBoundMs: 90_000,
  },
  {
    // The product extractor ran on the server's event loop: 3.4 s in which nothing else was answered.
    name: '60,000 microdata offers, product format',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/many-offers', { formats: ['product'], timeout: 30_000 }),
    expect: { status: 200, check: (answer) => expectText(JSON.stringify(answer.body), '59999.99') },
    credits: 1,
    rssBoundMib: BROWSER,
    timeBoundMs: 45_000,
    loopBoundMs: BIG_ANSWER_LOOP_MS,
  },
  {
    // Its 180,000 facts were spread into one call: "Maximum call stack size exceeded", a 500.
    name: '90,000-entry definition list, question format',
    orTimeout: true,
    category: 'huge node',
    run: siteScrape('/many-facts', {
      formats: ['markdown', { type: 'question', question: 'How heavy is it?' }],
      timeout: 60_000,
    }),
    expect: { status: 200, check: (answer) => expectText(JSON.stringify(answer.body), '5 kg') },
    credits: 5,
    // Last, the process tree still holds the Chromium of the browser cases (about 2.4 GiB before it).
    rssBoundMib: BROWSER,
    timeBoundMs: 90_000,
  },
];
