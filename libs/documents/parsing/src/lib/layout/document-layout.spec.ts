import type { PageContent, TextItem } from '../model/page-content.types';
import { layoutDocument } from './document-layout';
import { item } from './layout-test.util';

const page = (pageNumber: number, items: TextItem[], extra: Partial<PageContent> = {}): PageContent => ({
  pageNumber,
  width: 612,
  height: 792,
  items,
  images: [],
  rules: [],
  truncated: false,
  ...extra,
});

function furniture(pageNumber: number): TextItem[] {
  return [item('Acme Handbook', 50, 35, 9), item(`${pageNumber}`, 300, 760, 9)];
}

describe('layoutDocument', () => {
  const first = page(
    1,
    [
      ...furniture(1),
      item('Handbook', 50, 90, 24, { bold: true }),
      item('Intro paragraph first line that is long enough to wrap', 50, 130),
      item('onto a second line.', 50, 143),
      item('Section A', 50, 180, 16, { bold: true }),
      item('• one', 60, 205),
      item('• two', 60, 219),
      item('Figure 1: A chart of things.', 50, 420, 9),
      item('const x = 1;', 50, 460, 10, { monospace: true }),
    ],
    { images: [{ x0: 50, y0: 240, x1: 300, y1: 400 }] },
  );
  const second = page(2, [
    ...furniture(2),
    item('Section 7', 50, 60, 16, { bold: true }),
    item('Second page text.', 50, 100),
  ]);

  it('types blocks, drops furniture from the markdown and keeps it as blocks', () => {
    const result = layoutDocument(
      [
        {
          pageNumber: 1,
          content: first,
          source: 'native_text',
          status: 'ok',
          renderSize: { width: 612, height: 792 },
        },
        {
          pageNumber: 2,
          content: second,
          source: 'native_text',
          status: 'ok',
          renderSize: { width: 612, height: 792 },
        },
        { pageNumber: 3, source: 'native_text', status: 'failed', renderSize: null },
      ],
      { pageMarkers: true },
    );
    expect(result.markdown).toBe(
      [
        '# Handbook',
        'Intro paragraph first line that is long enough to wrap onto a second line.',
        '## Section A',
        '- one\n- two',
        'Figure 1: A chart of things.',
        '```\nconst x = 1;\n```',
        '---',
        '<!-- page 2 -->',
        '## Section 7',
        'Second page text.',
      ].join('\n\n'),
    );
    expect(result.title).toBe('Handbook');
    const types = result.blocks[0].items.map((block) => `${block.type}/${block.label}`);
    expect(types).toEqual([
      'page_header/page_header',
      'title/title',
      'text/paragraph',
      'section_header/section_header',
      'text/list_item',
      'text/list_item',
      'figure/figure',
      'caption/caption',
      'text/code',
      'page_number/page_number',
    ]);
    expect(result.blocks[2]).toEqual({
      pageNumber: 3,
      width: null,
      height: null,
      status: 'failed',
      items: [],
    });
    for (const block of result.blocks.flatMap((entry) => entry.items)) {
      if (block.markdownSpan) expect(result.markdown.slice(...block.markdownSpan)).toBe(block.content);
      for (const value of block.bbox ?? []) expect(value).toBeGreaterThanOrEqual(0);
      for (const value of block.bbox ?? []) expect(value).toBeLessThanOrEqual(1);
    }
  });
});
