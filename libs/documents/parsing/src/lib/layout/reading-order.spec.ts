import { readingOrder } from './reading-order';

const box = (id: string, x0: number, y0: number, x1: number, y1: number) => ({ id, x0, y0, x1, y1 });

describe('readingOrder (XY-cut)', () => {
  it('reads a two-column page under a full-width title column by column', () => {
    const elements = [
      box('title', 50, 50, 560, 75),
      box('right-1', 320, 100, 560, 112),
      box('left-1', 50, 100, 290, 112),
      box('right-2', 320, 115, 560, 127),
      box('left-2', 50, 115, 290, 127),
      box('left-3', 50, 130, 290, 142),
      box('footer-wide', 50, 200, 560, 212),
    ];
    expect(readingOrder(elements, 9).map((element) => element.id)).toEqual([
      'title',
      'left-1',
      'left-2',
      'left-3',
      'right-1',
      'right-2',
      'footer-wide',
    ]);
  });

  it('keeps a single column top to bottom', () => {
    const elements = [box('c', 50, 140, 500, 152), box('a', 50, 100, 500, 112), box('b', 60, 120, 480, 132)];
    expect(readingOrder(elements, 9).map((element) => element.id)).toEqual(['a', 'b', 'c']);
  });

  it('does not split at gaps narrower than a column gutter', () => {
    const elements = [
      box('left', 50, 100, 200, 112),
      box('right', 204, 100, 400, 112),
      box('below', 50, 120, 400, 132),
    ];
    expect(readingOrder(elements, 9).map((element) => element.id)).toEqual(['left', 'right', 'below']);
  });
});
