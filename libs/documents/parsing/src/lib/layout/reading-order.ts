import type { Box } from '../model/page-content.types';

interface Gap {
  at: number;
  width: number;
}

/** Above this many elements the recursive cut is skipped (hostile pages): plain top-to-bottom order. */
const MAX_ELEMENTS = 4_000;

/**
 * Reading order by recursive XY-cut: at each step the widest empty band wins. A vertical band
 * (column gutter) at least `minColumnGap` wide splits left before right; a horizontal band splits
 * top before bottom. Columns under a full-width title therefore read column by column.
 */
export function readingOrder<T extends Box>(elements: readonly T[], minColumnGap: number): T[] {
  if (elements.length > MAX_ELEMENTS) return [...elements].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: T[] = [];
  cut([...elements], minColumnGap, out);
  return out;
}

function cut<T extends Box>(elements: T[], minColumnGap: number, out: T[]): void {
  if (elements.length <= 1) {
    out.push(...elements);
    return;
  }
  const vertical = widestGap(elements, 'x', minColumnGap);
  const horizontal = widestGap(elements, 'y', 0.5);
  if (vertical && (!horizontal || vertical.width >= horizontal.width)) {
    cut(
      elements.filter((element) => (element.x0 + element.x1) / 2 < vertical.at),
      minColumnGap,
      out,
    );
    cut(
      elements.filter((element) => (element.x0 + element.x1) / 2 >= vertical.at),
      minColumnGap,
      out,
    );
    return;
  }
  if (horizontal) {
    cut(
      elements.filter((element) => (element.y0 + element.y1) / 2 < horizontal.at),
      minColumnGap,
      out,
    );
    cut(
      elements.filter((element) => (element.y0 + element.y1) / 2 >= horizontal.at),
      minColumnGap,
      out,
    );
    return;
  }
  out.push(...elements.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
}

function widestGap(elements: readonly Box[], axis: 'x' | 'y', minimum: number): Gap | undefined {
  const start = axis === 'x' ? 'x0' : 'y0';
  const end = axis === 'x' ? 'x1' : 'y1';
  const sorted = [...elements].sort((a, b) => a[start] - b[start]);
  let reach = sorted[0][end];
  let best: Gap | undefined;
  for (let index = 1; index < sorted.length; index += 1) {
    const element = sorted[index];
    const width = element[start] - reach;
    if (width >= minimum && (!best || width > best.width)) best = { at: reach + width / 2, width };
    reach = Math.max(reach, element[end]);
  }
  return best;
}
