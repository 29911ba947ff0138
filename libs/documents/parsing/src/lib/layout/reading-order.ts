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
  // Sorted once by x0 and by y0: a part of a sorted list, filtered in order, is that part sorted (the
  // sort is stable), so the cuts below never sort again.
  cut(
    {
      elements: [...elements],
      byX: [...elements].sort((a, b) => a.x0 - b.x0),
      byY: [...elements].sort((a, b) => a.y0 - b.y0),
    },
    minColumnGap,
    out,
  );
  return out;
}

/** Elements in their given order, and the same sorted by x0 and by y0. */
interface Region<T extends Box> {
  elements: T[];
  byX: T[];
  byY: T[];
}

function cut<T extends Box>(region: Region<T>, minColumnGap: number, out: T[]): void {
  const { elements } = region;
  if (elements.length <= 1) {
    for (const element of elements) out.push(element);
    return;
  }
  const vertical = widestGap(region.byX, 'x', minColumnGap);
  const horizontal = widestGap(region.byY, 'y', 0.5);
  if (vertical && (!horizontal || vertical.width >= horizontal.width)) {
    const left = (element: T) => (element.x0 + element.x1) / 2 < vertical.at;
    cut(part(region, left, true), minColumnGap, out);
    cut(part(region, left, false), minColumnGap, out);
    return;
  }
  if (horizontal) {
    const above = (element: T) => (element.y0 + element.y1) / 2 < horizontal.at;
    cut(part(region, above, true), minColumnGap, out);
    cut(part(region, above, false), minColumnGap, out);
    return;
  }
  for (const element of elements.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)) out.push(element);
}

function part<T extends Box>(region: Region<T>, test: (element: T) => boolean, side: boolean): Region<T> {
  return {
    elements: region.elements.filter((element) => test(element) === side),
    byX: region.byX.filter((element) => test(element) === side),
    byY: region.byY.filter((element) => test(element) === side),
  };
}

/** The widest empty band between elements sorted by their start on the axis. */
function widestGap(sorted: readonly Box[], axis: 'x' | 'y', minimum: number): Gap | undefined {
  const start = axis === 'x' ? 'x0' : 'y0';
  const end = axis === 'x' ? 'x1' : 'y1';
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
