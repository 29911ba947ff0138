import type { Line } from './text-lines';
import { furnitureKey, isPageNumberText } from './text-patterns';

export type FurnitureType = 'page_header' | 'page_footer' | 'page_number';

export interface FurniturePage {
  height: number;
  lines: readonly Line[];
}

/** Share of the page height at the top and at the bottom where running headers and footers live. */
export const MARGIN_ZONE = 0.1;

/**
 * Finds page headers, footers and page numbers: lines in the top or bottom margin that are page
 * numbers, or whose text and size repeat on enough pages (digits ignored for small text).
 */
export function detectFurniture(pages: readonly FurniturePage[], bodySize: number): Map<Line, FurnitureType> {
  const found = new Map<Line, FurnitureType>();
  const candidates: { line: Line; zone: 'top' | 'bottom'; key: string; exact: string; page: number }[] = [];
  pages.forEach((page, index) => {
    for (const line of page.lines) {
      const zone =
        line.y1 <= page.height * MARGIN_ZONE
          ? 'top'
          : line.y0 >= page.height * (1 - MARGIN_ZONE)
            ? 'bottom'
            : undefined;
      if (!zone) continue;
      const size = Math.round(line.fontSize);
      candidates.push({
        line,
        zone,
        key: `${zone}|${size}|${furnitureKey(line.text)}`,
        exact: `${zone}|${size}|${line.text}`,
        page: index,
      });
    }
  });
  const pagesPerKey = new Map<string, Set<number>>();
  const count = (key: string, page: number) => {
    const set = pagesPerKey.get(key) ?? new Set<number>();
    set.add(page);
    pagesPerKey.set(key, set);
  };
  for (const candidate of candidates) {
    count(candidate.key, candidate.page);
    count(candidate.exact, candidate.page);
  }
  const pagesWithText = pages.filter((page) => page.lines.length > 0).length;
  const repeatThreshold = Math.max(2, Math.ceil(0.4 * pagesWithText));
  // Identical text repeats as furniture at any size; text that differs in its numbers ("Section 3")
  // only when it is small: a numbered heading at the top of every page is content.
  const repeats = (key: string) => (pagesPerKey.get(key)?.size ?? 0) >= repeatThreshold;
  for (const candidate of candidates) {
    if (isPageNumberText(candidate.line.text)) found.set(candidate.line, 'page_number');
    else if (
      repeats(candidate.exact) ||
      (repeats(candidate.key) && candidate.line.fontSize <= bodySize * 1.05)
    ) {
      found.set(candidate.line, candidate.zone === 'top' ? 'page_header' : 'page_footer');
    }
  }
  return found;
}
