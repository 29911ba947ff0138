import type { LayoutBlock, PageBlocks, ScrapeDocument } from '@quarry/contracts';
import type { OfficeFixture } from '@quarry/documents/fixtures';
import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

export interface Fixtures {
  report: Buffer;
  pii: Buffer;
  long: Buffer;
  scanned: Buffer;
  encrypted: Buffer;
  office: OfficeFixture[];
}

export type Body = {
  success: boolean;
  data: ScrapeDocument;
  error?: string;
  code?: string;
  details?: unknown;
};

export async function fixtureSite(files: Fixtures): Promise<FixtureServer> {
  const pdf =
    (data: Buffer, type = 'application/pdf') =>
    (_request: unknown, response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': type, 'content-length': String(data.length) }).end(data);
    };
  return startFixtureServer({
    '/report.pdf': pdf(files.report),
    '/pii.pdf': pdf(files.pii),
    '/long.pdf': pdf(files.long),
    '/scanned.pdf': pdf(files.scanned),
    '/encrypted.pdf': pdf(files.encrypted),
    '/download': pdf(files.report, 'application/octet-stream'),
    '/page.html': html(
      '<html><head><title>Plain page</title></head><body><main><h1>Plain HTML</h1><p>Not a PDF at all, marker html-42.</p></main></body></html>',
    ),
  });
}

/** Every block span indexes the returned markdown exactly, or is null (docs/documents.md#output). */
export function spansValidOrNull(document: ScrapeDocument): LayoutBlock[] {
  const items = (document.blocks ?? []).flatMap((page: PageBlocks) => page.items as LayoutBlock[]);
  for (const block of items)
    if (block.markdownSpan)
      expect((document.markdown ?? '').slice(block.markdownSpan[0], block.markdownSpan[1])).toBe(
        block.content,
      );
  return items;
}

export function spansIndexMarkdown(document: ScrapeDocument): void {
  const items = (document.blocks ?? []).flatMap((page: PageBlocks) => page.items as LayoutBlock[]);
  expect(items.length).toBeGreaterThan(0);
  for (const block of items) {
    if (block.markdownSpan)
      expect((document.markdown ?? '').slice(block.markdownSpan[0], block.markdownSpan[1])).toBe(
        block.content,
      );
    expect(block.id).toMatch(/^p\d+\.b\d+$/);
  }
}
