import type { Line } from './text-lines';

/** Document-wide typography: the body size, and the larger sizes that mark headings. */
export interface LayoutStats {
  bodySize: number;
  /** Heading font sizes, largest first (at most five levels). */
  headingSizes: number[];
  /** How much larger than the body a heading must be (higher for OCR, whose sizes are estimates). */
  headingRatio: number;
}

export const HEADING_RATIO = 1.15;
export const OCR_HEADING_RATIO = 1.3;

const round = (size: number) => Math.round(size * 2) / 2;

export function computeLayoutStats(lines: readonly Line[], headingRatio = HEADING_RATIO): LayoutStats {
  const weight = new Map<number, number>();
  for (const line of lines) {
    const size = round(line.fontSize);
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  if (weight.size === 0) return { bodySize: 10, headingSizes: [], headingRatio };
  const bodySize = [...weight.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  const total = [...weight.values()].reduce((sum, value) => sum + value, 0);
  const headingSizes = [...weight.entries()]
    .filter(([size, chars]) => size >= bodySize * headingRatio && chars <= total * 0.35)
    .map(([size]) => size)
    .sort((a, b) => b - a)
    .slice(0, 5);
  return { bodySize, headingSizes, headingRatio };
}

/** Markdown heading level (1–6) of a heading line of this size; bold body-size headings come last. */
export function headingLevel(stats: LayoutStats, size: number): number {
  const rounded = round(size);
  const index = stats.headingSizes.findIndex((candidate) => rounded >= candidate - 0.25);
  const level = index === -1 ? Math.max(2, stats.headingSizes.length + 1) : index + 1;
  return Math.min(6, Math.max(1, level));
}
