import type { LayoutBlock } from '../layout/page-layout';
import { assembleDocument, type AssembledPage, pageMarker } from './assemble-document';

const block = (markdown: string, options: Partial<LayoutBlock> = {}): LayoutBlock => ({
  type: 'text',
  label: 'paragraph',
  box: { x0: 61.2, y0: 79.2, x1: 306, y1: 158.4 },
  markdown,
  inMarkdown: true,
  listItem: false,
  confidence: { layout: 0.9, ocr: null },
  ...options,
});

const page = (pageNumber: number, blocks: LayoutBlock[]): AssembledPage => ({
  pageNumber,
  pointSize: { width: 612, height: 792 },
  renderSize: { width: 612, height: 792 },
  status: 'ok',
  source: 'native_text',
  blocks,
});

describe('assembleDocument', () => {
  const pages = [
    page(1, [
      block('Quarry Report', { type: 'page_header', label: 'page_header', inMarkdown: false }),
      block('# Title', { type: 'title', label: 'title' }),
      block('- a', { listItem: true }),
      block('- b', { listItem: true }),
    ]),
    page(2, []),
    page(3, [block('Closing words.')]),
  ];

  it('puts the spec separator between pages, never before the first, and skips empty pages', () => {
    const { markdown } = assembleDocument(pages, { pageMarkers: true });
    expect(pageMarker(3)).toBe('\n\n---\n\n<!-- page 3 -->\n\n');
    expect(markdown).toBe('# Title\n\n- a\n- b\n\n---\n\n<!-- page 3 -->\n\nClosing words.');
    expect(assembleDocument(pages, { pageMarkers: false }).markdown).toBe(
      '# Title\n\n- a\n- b\n\nClosing words.',
    );
  });

  it('gives every block in the markdown a span that indexes it exactly', () => {
    for (const pageMarkers of [true, false]) {
      const { markdown, blocks } = assembleDocument(pages, { pageMarkers });
      const items = blocks.flatMap((entry) => entry.items);
      for (const item of items.filter((entry) => entry.markdownSpan)) {
        const [start, end] = item.markdownSpan as [number, number];
        expect(markdown.slice(start, end)).toBe(item.content);
      }
      expect(items.find((entry) => entry.type === 'page_header')?.markdownSpan).toBeNull();
    }
  });

  it('numbers blocks p<page>.b<index> in reading order with normalised boxes', () => {
    const { blocks, pages: pageMarkdown } = assembleDocument(pages, { pageMarkers: false });
    expect(blocks[0].items.map((item) => item.id)).toEqual(['p1.b0', 'p1.b1', 'p1.b2', 'p1.b3']);
    expect(blocks[0].items[1]).toMatchObject({
      readingOrder: 1,
      bbox: [0.1, 0.1, 0.5, 0.2],
      source: 'native_text',
      label: 'title',
    });
    expect(blocks[1]).toMatchObject({ pageNumber: 2, items: [], width: 612, height: 792 });
    expect(pageMarkdown).toEqual([
      { pageNumber: 1, markdown: '# Title\n\n- a\n- b' },
      { pageNumber: 2, markdown: '' },
      { pageNumber: 3, markdown: 'Closing words.' },
    ]);
  });

  it('without blocks lists the pages with their sizes and statuses but no items, the markdown unchanged', () => {
    const full = assembleDocument(pages, { pageMarkers: true });
    const lean = assembleDocument(pages, { pageMarkers: true, blocks: false });
    expect(lean.markdown).toBe(full.markdown);
    expect(lean.pages).toEqual(full.pages);
    expect(lean.blocks).toEqual(full.blocks.map((entry) => ({ ...entry, items: [] })));
  });
});
