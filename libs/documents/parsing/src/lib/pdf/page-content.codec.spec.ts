import type { PageContent } from '../model/page-content.types';
import { packPageContent, unpackPageContent } from './page-content.codec';

describe('page content codec (the parse process → owner form of a page)', () => {
  const page: PageContent = {
    pageNumber: 3,
    width: 612,
    height: 792,
    items: [
      {
        text: 'Quarterly report',
        x0: 72,
        y0: 60.5,
        x1: 300.25,
        y1: 84,
        baseline: 80,
        fontSize: 24,
        bold: true,
        italic: false,
        monospace: false,
        rotated: false,
      },
      {
        text: 'naïve — ünïcödé 𝔘 and \u0000 control',
        x0: 1,
        y0: 2,
        x1: 3,
        y1: 4,
        baseline: 3.5,
        fontSize: 9,
        bold: false,
        italic: true,
        monospace: true,
        rotated: true,
        confidence: 0.87,
      },
      {
        text: '',
        x0: 0,
        y0: 0,
        x1: 0,
        y1: 0,
        baseline: 0,
        fontSize: 1,
        bold: false,
        italic: false,
        monospace: false,
        rotated: false,
      },
    ],
    images: [{ x0: 10, y0: 20, x1: 30, y1: 40 }],
    rules: [{ x0: 0, y0: 100, x1: 612, y1: 101 }],
    truncated: true,
  };

  it('round-trips every field of every item, the optional confidence included', () => {
    expect(unpackPageContent(packPageContent(page))).toEqual(page);
  });

  it('carries the items as one string and typed arrays', () => {
    const packed = packPageContent(page);
    expect(packed.text).toBe(page.items.map((item) => item.text).join(''));
    expect(packed.lengths).toBeInstanceOf(Uint32Array);
    expect(packed.numbers).toBeInstanceOf(Float64Array);
    expect(packed.flags).toBeInstanceOf(Uint8Array);
    expect(Object.keys(packed)).not.toContain('items');
  });

  it('survives structured cloning, as over the IPC channel', () => {
    expect(unpackPageContent(structuredClone(packPageContent(page)))).toEqual(page);
  });

  it('handles a page without text', () => {
    const empty: PageContent = { ...page, items: [] };
    expect(unpackPageContent(packPageContent(empty))).toEqual(empty);
  });
});
