import { item } from '../layout/layout-test.util';
import type { PageContent } from '../model/page-content.types';
import { assessText, ocrReason } from './text-quality';

const page = (items: PageContent['items'], images: PageContent['images'] = []): PageContent => ({
  pageNumber: 1,
  width: 612,
  height: 792,
  items,
  images,
  rules: [],
  truncated: false,
});

describe('text quality', () => {
  it('counts readable text as clean', () => {
    expect(assessText([item('Plain readable text, with punctuation!', 50, 100)])).toEqual({
      chars: 34,
      garbageRatio: 0,
    });
  });

  it('flags replacement, control and private-use characters', () => {
    const quality = assessText([item('\uFFFD\uE001\u0003ab', 50, 100)]);
    expect(quality.garbageRatio).toBeCloseTo(0.6);
  });

  it('asks for OCR on pages without text, with garbage, or scanned with a stray label', () => {
    expect(ocrReason(page([]))).toBe('no_text');
    expect(ocrReason(page([item('\uE000\uE001\uE002\uE003 ok', 50, 100)]))).toBe('garbage_text');
    expect(ocrReason(page([item('12', 300, 770)], [{ x0: 0, y0: 0, x1: 612, y1: 792 }]))).toBe('scanned');
    expect(
      ocrReason(page([item('A normal page of text that has plenty of characters in it.', 50, 100)])),
    ).toBeUndefined();
  });
});
