import type { PageContent } from '../model/page-content.types';
import { isPageFailure, packPages, unpackPages } from './page-content.codec';

describe('page content codec (the parse process → owner form of a batch of pages)', () => {
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

  const second: PageContent = {
    ...page,
    pageNumber: 5,
    items: [{ ...page.items[0], text: 'Second page', x0: 90 }],
    images: [],
    rules: [
      { x0: 1, y0: 2, x1: 3, y1: 4 },
      { x0: 5, y0: 6, x1: 7, y1: 8 },
    ],
    truncated: false,
  };

  it('round-trips every field of every item of every page, the optional confidence included', () => {
    expect(unpackPages(packPages([page, second]))).toEqual([page, second]);
  });

  it('carries the items of a batch as one string and typed arrays', () => {
    const packed = packPages([page, second]);
    expect(packed.text).toBe([...page.items, ...second.items].map((item) => item.text).join(''));
    expect(packed.lengths).toBeInstanceOf(Uint32Array);
    expect(packed.numbers).toBeInstanceOf(Float64Array);
    expect(packed.flags).toBeInstanceOf(Uint8Array);
    expect(packed.boxes).toHaveLength(4 * 4);
    expect(packed.pages).toEqual([
      { pageNumber: 3, width: 612, height: 792, truncated: true, items: 3, images: 1, rules: 1 },
      { pageNumber: 5, width: 612, height: 792, truncated: false, items: 1, images: 0, rules: 2 },
    ]);
  });

  it('survives structured cloning, as over the IPC channel', () => {
    expect(unpackPages(structuredClone(packPages([page, second])))).toEqual([page, second]);
  });

  it('keeps the place of pages that could not be read, and handles pages without text', () => {
    const empty: PageContent = { ...page, pageNumber: 4, items: [], images: [], rules: [] };
    const failed = { pageNumber: 2, error: 'Invalid page content' };
    const outcomes = unpackPages(packPages([failed, empty, second]));
    expect(outcomes).toEqual([failed, empty, second]);
    expect(outcomes.map(isPageFailure)).toEqual([true, false, false]);
    expect(unpackPages(packPages([]))).toEqual([]);
  });
});
