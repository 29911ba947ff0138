import type { LayoutBlock, ScrapeDocument } from '@quarry/contracts';
import { applyRedaction, detectPii, removeBoilerplate } from '@quarry/scrape/formats';

import { redactFragments, relocateSpans } from './document-fragments.util';

const block = (id: string, content: string, markdownSpan: [number, number] | null): LayoutBlock => ({
  id,
  type: 'text',
  label: 'paragraph',
  bbox: [0.1, 0.1, 0.9, 0.2],
  content,
  markdownSpan,
  readingOrder: 0,
  source: 'native_text',
  confidence: { layout: 0.9, ocr: null },
});

/** A parsed PDF as the doc-parser answers it: markdown, pages and blocks whose spans index the markdown. */
function parsedPdf(): ScrapeDocument {
  const fragments = [
    '# Quarterly Report',
    'Prepared by Maria Lopez (maria.lopez@lamps.example, +1 503 555 0142).',
    'We use cookies to improve your experience. Accept all cookies.',
    'Revenue grew 12 % on lamp sales.',
  ];
  const markdown = fragments.join('\n\n');
  let cursor = 0;
  const items = fragments.map((content, index) => {
    const start = markdown.indexOf(content, cursor);
    cursor = start + content.length;
    return block(`p1.b${index}`, content, [start, cursor]);
  });
  items.push({
    ...block('p1.b4', 'Confidential — card 4111 1111 1111 1111 on file', null),
    type: 'page_footer',
  });
  return {
    markdown,
    pages: [{ pageNumber: 1, markdown }],
    blocks: [{ pageNumber: 1, width: 612, height: 792, status: 'ok', items }],
    metadata: {
      contentType: 'application/pdf',
      sourceURL: 'https://a.example/r.pdf',
      url: 'https://a.example/r.pdf',
      statusCode: 200,
    },
  };
}

function allItems(document: ScrapeDocument): LayoutBlock[] {
  return (document.blocks ?? []).flatMap((page) => page.items);
}

function expectSpansValid(document: ScrapeDocument, markdown: string): void {
  for (const item of allItems(document))
    if (item.markdownSpan) expect(markdown.slice(...item.markdownSpan)).toBe(item.content);
}

const RAW = ['maria.lopez@lamps.example', 'Maria Lopez', '555 0142', '4111 1111 1111 1111'];

describe('redactFragments', () => {
  it.each(['tag', 'mask', 'remove'] as const)(
    'redacts pages and block contents and keeps every span exact (%s style)',
    (replaceStyle) => {
      const sut = parsedPdf();
      const markdown = sut.markdown as string;
      const found = detectPii(markdown, { mode: 'accurate' });
      redactFragments(sut, markdown, found, { mode: 'accurate', replaceStyle });
      const redacted = applyRedaction(markdown, found, replaceStyle);
      const text = JSON.stringify({ pages: sut.pages, blocks: sut.blocks });
      for (const raw of RAW) expect(text).not.toContain(raw);
      expectSpansValid(sut, redacted);
      // Blocks untouched by PII keep a span; the moved ones still index the redacted markdown.
      expect(allItems(sut)[3].markdownSpan).not.toBeNull();
      expect(allItems(sut)[1].markdownSpan).not.toBeNull();
      expect(sut.pages?.[0].markdown).toBe(redacted);
    },
  );

  it('redacts in fragments what the markdown redaction found, even where patterns alone would not', () => {
    const sut = parsedPdf();
    const markdown = sut.markdown as string;
    // As if a model had named "Revenue" a person: the footer and page must follow the markdown.
    const at = markdown.indexOf('Revenue');
    const found = [{ start: at, end: at + 7, type: 'PERSON' as const, text: 'Revenue' }];
    redactFragments(sut, markdown, found, { mode: 'fast', replaceStyle: 'tag' });
    expect(sut.pages?.[0].markdown).toContain('[PERSON] grew 12 %');
    expectSpansValid(sut, applyRedaction(markdown, found, 'tag'));
  });

  it('nulls the span of a block a PII span straddles', () => {
    const sut = parsedPdf();
    const markdown = sut.markdown as string;
    const start = markdown.indexOf('Report');
    const end = markdown.indexOf('Prepared') + 'Prepared'.length;
    const found = [{ start, end, type: 'PERSON' as const, text: markdown.slice(start, end) }];
    redactFragments(sut, markdown, found, { mode: 'fast', replaceStyle: 'tag' });
    expect(allItems(sut)[0].markdownSpan).toBeNull();
    expect(allItems(sut)[1].markdownSpan).toBeNull();
    expectSpansValid(sut, applyRedaction(markdown, found, 'tag'));
  });
});

describe('relocateSpans', () => {
  it('moves the spans of kept fragments and nulls the removed ones after a cleaning pass', () => {
    const sut = parsedPdf();
    const cleaned = removeBoilerplate(sut.markdown as string).markdown;
    expect(cleaned).not.toContain('cookies');
    relocateSpans(sut, cleaned);
    const [title, prepared, cookies, revenue] = allItems(sut);
    expect(title.markdownSpan).toEqual([0, title.content.length]);
    expect(prepared.markdownSpan).not.toBeNull();
    expect(cookies.markdownSpan).toBeNull();
    expect(revenue.markdownSpan).not.toBeNull();
    expectSpansValid(sut, cleaned);
  });
});
