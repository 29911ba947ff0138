import Firecrawl from '@mendable/firecrawl-js';
import { Client } from 'pg';

import {
  characterErrorRate,
  docxFixture,
  encryptedPdf,
  garbagePdf,
  longPdf,
  type OfficeFixture,
  officeFixtures,
  PII_PDF,
  piiPdf,
  REPORT,
  reportPdf,
  SCANNED_PAGES,
  scannedPageText,
  scannedPdf,
  textImagePng,
  truncated,
} from '@quarry/documents/fixtures';
import type { FixtureServer } from '@quarry/testing';

import { call, upload } from './support/api-client';
import {
  type Body,
  type Fixtures,
  fixtureSite,
  spansIndexMarkdown,
  spansValidOrNull,
} from './support/documents-support';
import { type Platform, startCluster, startStandalone } from './support/platform';

// Black-box tests of document parsing: scraped PDF URLs and /v2/parse uploads go through the
// doc-parser, over Kafka in the cluster (separate gateway, scrape worker and doc-parser processes)
// and over the in-memory bus in one-process mode.
jest.setTimeout(240_000);

/** The scenarios both process layouts must pass. */
function describeDocumentParsing(
  name: string,
  start: () => Promise<Platform>,
  extra?: (context: () => { platform: Platform; site: FixtureServer; files: Fixtures }) => void,
) {
  describe(name, () => {
    let platform: Platform;
    let site: FixtureServer;
    let files: Fixtures;
    const scrape = (body: Record<string, unknown>) =>
      call<Body>(platform.url(), 'POST', '/v2/scrape', { apiKey: platform.apiKey, body });
    const parse = (
      file: { filename: string; data: Buffer } | undefined,
      options?: unknown,
      rawOptions?: string,
    ) => upload<Body>(platform.url(), '/v2/parse', file, { apiKey: platform.apiKey, options, rawOptions });

    beforeAll(async () => {
      files = {
        report: await reportPdf(),
        pii: await piiPdf(),
        long: await longPdf(200),
        scanned: await scannedPdf(150),
        encrypted: await encryptedPdf(),
        office: await officeFixtures(),
      };
      site = await fixtureSite(files);
      platform = await start();
    });
    afterAll(async () => {
      await platform?.stop();
      await site?.close();
    });

    it('scrapes a PDF URL into markdown with page counts, billed one credit per page', async () => {
      const response = await scrape({ url: `${site.url}/report.pdf` });
      expect(response.status).toBe(200);
      const document = response.body.data;
      expect(document.markdown?.startsWith(`# ${REPORT.title}`)).toBe(true);
      expect(document.markdown).toContain(`| ${REPORT.table[1].join(' | ')} |`);
      expect(document.metadata).toMatchObject({
        numPages: 3,
        totalPages: 3,
        contentType: 'application/pdf',
        statusCode: 200,
        sourceURL: `${site.url}/report.pdf`,
        creditsUsed: 3,
      });
      expect(document.pages).toBeUndefined();
      expect(document.blocks).toBeUndefined();
    });

    it('returns the PDF base64-encoded for one credit with parsers: []', async () => {
      const { body } = await scrape({ url: `${site.url}/report.pdf`, parsers: [] });
      expect(body.data.markdown?.startsWith('JVBER')).toBe(true);
      expect(Buffer.from(body.data.markdown ?? '', 'base64').equals(files.report)).toBe(true);
      expect(body.data.metadata.creditsUsed).toBe(1);
      expect(body.data.metadata.numPages).toBeUndefined();
    });

    it('honours maxPages, pages, blocks and pageMarkers', async () => {
      const one = (await scrape({ url: `${site.url}/report.pdf`, parsers: [{ type: 'pdf', maxPages: 1 }] }))
        .body.data;
      expect(one.metadata).toMatchObject({ numPages: 1, totalPages: 3, creditsUsed: 1 });
      const more = (await scrape({ url: `${site.url}/report.pdf`, parsers: [{ type: 'pdf', maxPages: 10 }] }))
        .body.data;
      expect(more.metadata.totalPages).toBe(more.metadata.numPages);
      const full = (
        await scrape({
          url: `${site.url}/report.pdf`,
          parsers: [{ type: 'pdf', mode: 'fast', pages: true, blocks: true, pageMarkers: true }],
        })
      ).body.data;
      expect(full.markdown).toContain('\n\n---\n\n<!-- page 2 -->\n\n');
      expect(full.markdown).not.toContain('<!-- page 1 -->');
      expect(full.pages?.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
      expect(full.blocks?.map((page) => page.status)).toEqual(['ok', 'ok', 'ok']);
      expect(full.blocks?.[0].items.map((block) => block.type)).toEqual(
        expect.arrayContaining([
          'page_header',
          'title',
          'section_header',
          'text',
          'page_footer',
          'page_number',
        ]),
      );
      spansIndexMarkdown(full);
    });

    it('truncates a 200-page PDF at maxPages and reports the true count', async () => {
      const { body } = await scrape({
        url: `${site.url}/long.pdf`,
        parsers: [{ type: 'pdf', mode: 'fast', maxPages: 50 }],
      });
      expect(body.data.metadata).toMatchObject({ numPages: 50, totalPages: 200, creditsUsed: 50 });
      expect(body.data.markdown).toContain('marker50x');
      expect(body.data.markdown).not.toContain('marker51x');
    });

    it('OCRs a scanned PDF in auto mode and refuses it in fast mode', async () => {
      const auto = (await scrape({ url: `${site.url}/scanned.pdf`, parsers: [{ type: 'pdf', pages: true }] }))
        .body.data;
      SCANNED_PAGES.forEach((page, index) =>
        expect(
          characterErrorRate(
            scannedPageText(page),
            (auto.pages?.[index].markdown ?? '').replace(/^#+ /gm, ''),
          ),
        ).toBeLessThan(0.05),
      );
      expect(auto.metadata.creditsUsed).toBe(2);
      const fast = await scrape({ url: `${site.url}/scanned.pdf`, parsers: [{ type: 'pdf', mode: 'fast' }] });
      expect(fast.status).toBe(400);
      expect(fast.body).toMatchObject({ success: false, code: 'SCRAPE_PDF_OCR_REQUIRED' });
    });

    it('OCRs every page of a scanned PDF in ocr mode, with OCR blocks', async () => {
      const response = await scrape({
        url: `${site.url}/scanned.pdf`,
        parsers: [{ type: 'pdf', mode: 'ocr', pages: true, blocks: true }],
      });
      expect(response.status).toBe(200);
      const document = response.body.data;
      SCANNED_PAGES.forEach((page, index) =>
        expect(
          characterErrorRate(
            scannedPageText(page),
            (document.pages?.[index].markdown ?? '').replace(/^#+ /gm, ''),
          ),
        ).toBeLessThan(0.05),
      );
      expect(document.blocks?.map((page) => page.status)).toEqual(['ok', 'ok']);
      const items = spansValidOrNull(document);
      expect(new Set(items.map((block) => block.source))).toEqual(new Set(['layout_ocr']));
      expect(items.every((block) => typeof block.confidence.ocr === 'number')).toBe(true);
      expect(document.metadata).toMatchObject({ numPages: 2, totalPages: 2, creditsUsed: 2 });
    });

    it('redacts PII in the markdown, the pages and the blocks of a PDF; spans stay exact or null', async () => {
      const response = await scrape({
        url: `${site.url}/pii.pdf`,
        redactPII: true,
        parsers: [{ type: 'pdf', mode: 'fast', pages: true, blocks: true }],
      });
      expect(response.status).toBe(200);
      const document = response.body.data;
      const everything = JSON.stringify(document);
      for (const raw of PII_PDF.raw)
        expect({ raw, found: everything.includes(raw) }).toEqual({ raw, found: false });
      expect(document.markdown).toContain('[EMAIL]');
      expect(document.markdown).toContain('[FINANCIAL]');
      expect(document.pages?.map((page) => page.markdown.includes('[PHONE]'))).toEqual([true, true]);
      const items = spansValidOrNull(document);
      // Body blocks keep exact spans into the redacted markdown; the running footer (kept out of it) is redacted too.
      expect(
        items.filter((block) => block.markdownSpan && block.content.includes('[EMAIL]')).length,
      ).toBeGreaterThan(0);
      const footers = items.filter((block) => block.type === 'page_footer');
      expect(footers.length).toBe(2);
      for (const footer of footers) expect(footer.content).toBe('Case owner: [EMAIL]');
      expect(document.warning).toContain('redactPII: no language model');
    });

    it('leaves markdown out of a PDF when formats do not ask for it, as for HTML pages', async () => {
      const links = (await scrape({ url: `${site.url}/report.pdf`, formats: ['links'] })).body.data;
      expect(links.markdown).toBeUndefined();
      expect(links.links).toEqual([]);
      expect(links.metadata).toMatchObject({ numPages: 3, creditsUsed: 3 });
    });

    it('returns a base64 PDF untouched by language-model formats, with a warning (parsers: [])', async () => {
      const { body } = await scrape({
        url: `${site.url}/pii.pdf`,
        parsers: [],
        formats: ['markdown', 'summary'],
        redactPII: true,
      });
      expect(Buffer.from(body.data.markdown ?? '', 'base64').equals(files.pii)).toBe(true);
      expect(body.data.summary).toBeUndefined();
      expect(body.data.metadata.creditsUsed).toBe(1);
      expect(body.data.warning).toBe(
        'summary, redactPII were not applied: with parsers: [] the PDF is returned base64-encoded, not as text; use the pdf parser to get its text.',
      );
    });

    it('recognises a PDF by its signature and ignores the PDF parser on HTML pages', async () => {
      const signed = (await scrape({ url: `${site.url}/download` })).body.data;
      expect(signed.metadata).toMatchObject({ numPages: 3, contentType: 'application/pdf' });
      const page = (
        await scrape({ url: `${site.url}/page.html`, parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 1 }] })
      ).body.data;
      expect(page.markdown).toContain('marker html-42');
      expect(page.metadata.numPages).toBeUndefined();
      expect(page.metadata.creditsUsed).toBe(1);
    });

    it('answers a password-protected PDF with 422 DOCUMENT_ENCRYPTED and invalid parser options with 400', async () => {
      const encrypted = await scrape({ url: `${site.url}/encrypted.pdf` });
      expect(encrypted.status).toBe(422);
      expect(encrypted.body).toMatchObject({ success: false, code: 'DOCUMENT_ENCRYPTED' });
      // Items are objects or the clients' shorthand strings "pdf" and "image" (docs/compatibility.md);
      // anything else is refused.
      for (const parser of [
        'pdf:fast',
        { type: 'pdf', mode: 'turbo' },
        { type: 'pdf', maxPages: 0 },
        { type: 'pdf', maxPages: 10_001 },
        { type: 'pdf', pages: 'yes' },
      ]) {
        const response = await scrape({ url: `${site.url}/report.pdf`, parsers: [parser] });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'Bad Request' });
        expect(Array.isArray(response.body.details)).toBe(true);
      }
      expect(
        (await scrape({ url: `${site.url}/report.pdf`, parsers: [{ type: 'pdf' }] })).body.data.metadata
          .numPages,
      ).toBe(3);
    });

    it.each([
      'summary.docx',
      'sales.xlsx',
      'people.csv',
      'notes.rtf',
      'guide.odt',
      'inventory.ods',
      'plan.odp',
      'roadmap.pptx',
      'tiny.epub',
      'article.html',
    ])('parses an uploaded %s into the expected markdown for one credit', async (filename) => {
      const fixture = files.office.find((candidate) => candidate.filename === filename) as OfficeFixture;
      const response = await parse(fixture);
      expect(response.status).toBe(200);
      expect(response.body.data.markdown).toBe(fixture.markdown);
      expect(response.body.data.metadata).toMatchObject({
        sourceURL: filename,
        creditsUsed: 1,
        statusCode: 200,
      });
    });

    it('parses an uploaded PDF with blocks, billed per page, and OCRs an uploaded image', async () => {
      const pdf = await parse(
        { filename: 'report.pdf', data: files.report },
        { parsers: [{ type: 'pdf', mode: 'fast', blocks: true, maxPages: 2 }] },
      );
      expect(pdf.body.data.metadata).toMatchObject({
        sourceURL: 'report.pdf',
        numPages: 2,
        totalPages: 3,
        creditsUsed: 2,
        contentType: 'application/pdf',
      });
      spansIndexMarkdown(pdf.body.data);
      const lines = ['Receipt 7781', 'Paid in full'];
      const image = await parse({ filename: 'receipt.png', data: await textImagePng(lines) });
      expect(
        characterErrorRate(lines.join('\n'), (image.body.data.markdown ?? '').replace(/^#+ /gm, '')),
      ).toBeLessThan(0.05);
      expect(image.body.data.metadata).toMatchObject({
        sourceURL: 'receipt.png',
        contentType: 'image/png',
        creditsUsed: 1,
      });
    });

    it('returns an uploaded PDF base64-encoded for one credit with parsers: []', async () => {
      // docs/documents.md#other-formats-post-v2parse forbids the rawBase64 format on parse, not the parsers option (docs/scraping.md#options): [] is the raw PDF.
      const response = await parse({ filename: 'report.pdf', data: files.report }, { parsers: [] });
      expect(response.status).toBe(200);
      expect(response.body.data.markdown?.startsWith('JVBER')).toBe(true);
      expect(Buffer.from(response.body.data.markdown ?? '', 'base64').equals(files.report)).toBe(true);
      expect(response.body.data.metadata).toMatchObject({ sourceURL: 'report.pdf', creditsUsed: 1 });
      expect(response.body.data.metadata.numPages).toBeUndefined();
    });

    it('rejects unsupported options, file types, missing files and bad options JSON with 400', async () => {
      const docx = files.office[0];
      for (const options of [
        { waitFor: 1000 },
        { actions: [{ type: 'wait', milliseconds: 10 }] },
        { location: { country: 'DE' } },
        { mobile: true },
        { proxy: 'enhanced' },
        { formats: ['screenshot'] },
        { formats: ['branding'] },
        { formats: ['markdown', { type: 'changeTracking' }] },
        { formats: ['rawBase64'] },
      ]) {
        const response = await parse(docx, options);
        expect({ options, status: response.status, code: response.body.code }).toEqual({
          options,
          status: 400,
          code: 'PARSE_UNSUPPORTED_OPTIONS',
        });
      }
      expect((await parse(docx, { unknownKey: 1 })).body).toMatchObject({
        code: 'BAD_REQUEST',
        error: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      });
      expect((await parse({ filename: 'notes.txt', data: Buffer.from('hello') })).body).toMatchObject({
        code: 'PARSE_UNSUPPORTED_FILE_TYPE',
      });
      expect((await parse(undefined, {})).status).toBe(400);
      expect((await parse(docx, undefined, '{not json')).body).toMatchObject({
        code: 'BAD_REQUEST_INVALID_JSON',
      });
      const json = await call<Body>(platform.url(), 'POST', '/v2/parse', {
        apiKey: platform.apiKey,
        body: { formats: ['markdown'] },
      });
      expect(json.status).toBe(400);
      const unknownRef = await call<Body>(platform.url(), 'POST', '/v2/parse', {
        apiKey: platform.apiKey,
        body: { uploadRef: 'x' },
      });
      expect(unknownRef.body).toMatchObject({ success: false, error: 'Upload reference not found' });
    });

    it('answers a broken upload with 422, recovers a truncated one, and keeps parsing afterwards', async () => {
      const broken = await parse({ filename: 'broken.pdf', data: garbagePdf() });
      expect(broken.status).toBe(422);
      expect(broken.body).toMatchObject({ success: false, code: 'DOCUMENT_INVALID' });
      const cut = await parse({ filename: 'cut.pdf', data: truncated(files.report, 0.9) });
      expect(cut.status).toBe(200);
      expect(cut.body.data.markdown).toContain(REPORT.intro);
      expect(cut.body.data.metadata.totalPages).toBeUndefined();
      expect(cut.body.data.warning).toMatch(/The PDF is damaged/);
      expect((await parse(files.office[0])).status).toBe(200);
    });

    it('adds language-model formats to uploads (offline fallbacks without an LLM) and bills them', async () => {
      const docx = files.office[0];
      const response = await parse(docx, {
        formats: [
          'markdown',
          'summary',
          { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body.data.markdown).toBe(docx.markdown);
      expect(typeof response.body.data.summary).toBe('string');
      expect((response.body.data.summary ?? '').length).toBeGreaterThan(0);
      expect(typeof response.body.data.json).toBe('object');
      expect(response.body.data.metadata.creditsUsed).toBe(5);
      const summaryOnly = await parse(docx, { formats: ['summary'] });
      expect(summaryOnly.body.data.markdown).toBeUndefined();
      expect(typeof summaryOnly.body.data.summary).toBe('string');
    });

    it('works with the official SDK', async () => {
      const client = new Firecrawl({ apiKey: platform.apiKey, apiUrl: platform.url() });
      const docx = await docxFixture();
      const document = await client.parse(
        { filename: docx.filename, data: docx.data },
        { formats: ['markdown'] },
      );
      expect(document.markdown).toBe(docx.markdown);
      expect(document.metadata?.sourceURL).toBe('summary.docx');
    });

    extra?.(() => ({ platform, site, files }));
  });
}

describeDocumentParsing(
  'documents in the cluster (gateway, scrape worker and doc-parser processes over Kafka)',
  () =>
    startCluster({
      gateways: 1,
      workers: 1,
      docParsers: 1,
      env: { PARSE_MAX_FILE_BYTES: String(3 * 1024 * 1024) },
    }),
  (context) => {
    it('parses in the doc-parser process (its metrics count the documents)', async () => {
      const { platform } = context();
      const metrics = await fetch(`${platform.docParsers[0].url}/metrics`).then((response) =>
        response.text(),
      );
      expect(metrics).toMatch(
        /quarry_documents_parsed_total\{[^}]*kind="pdf"[^}]*outcome="completed"[^}]*\} [1-9]/,
      );
      expect(metrics).toMatch(
        /quarry_documents_parsed_total\{[^}]*kind="docx"[^}]*outcome="completed"[^}]*\} [1-9]/,
      );
      const worker = await fetch(`${platform.workers[0].url}/metrics`).then((response) => response.text());
      expect(worker).not.toMatch(/quarry_documents_parsed_total\{[^}]*\} [1-9]/);
    });

    it('charges the ledger exactly what creditsUsed says', async () => {
      const { platform, site } = context();
      const response = await call<Body>(platform.url(), 'POST', '/v2/scrape', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/long.pdf`, parsers: [{ type: 'pdf', mode: 'fast', maxPages: 7 }] },
      });
      // The same request again is a cache hit: the pages are billed again, not one credit for the hit.
      const again = await call<Body>(platform.url(), 'POST', '/v2/scrape', {
        apiKey: platform.apiKey,
        body: { url: `${site.url}/long.pdf`, parsers: [{ type: 'pdf', mode: 'fast', maxPages: 7 }] },
      });
      expect(again.body.data.metadata).toMatchObject({ cacheState: 'hit', numPages: 7, creditsUsed: 7 });
      const client = new Client({ connectionString: platform.database?.url });
      await client.connect();
      try {
        for (const answer of [response, again]) {
          const { rows } = await client.query<{ amount: number }>(
            'SELECT amount FROM credit_ledger WHERE job_id = $1',
            [answer.body.data.metadata.scrapeId as string],
          );
          expect(rows.map((row) => row.amount)).toEqual([-7]);
        }
      } finally {
        await client.end();
      }
      expect(response.body.data.metadata.creditsUsed).toBe(7);
    });

    it('answers 413 for a file above PARSE_MAX_FILE_BYTES', async () => {
      const { platform } = context();
      const response = await upload<Body>(
        platform.url(),
        '/v2/parse',
        { filename: 'big.csv', data: Buffer.alloc(4 * 1024 * 1024, 'a') },
        { apiKey: platform.apiKey },
      );
      expect(response.status).toBe(413);
      expect(response.body).toMatchObject({ success: false, error: 'Payload Too Large' });
    });
  },
);

describeDocumentParsing('documents in one-process mode (in-memory bus)', () => startStandalone());
