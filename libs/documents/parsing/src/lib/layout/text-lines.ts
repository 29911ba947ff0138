import type { Box, TextItem } from '../model/page-content.types';

/**
 * A run of text items on one baseline with no wide gap inside: a line of a paragraph, a cell of a
 * table row, a heading. The unit the layout analysis works with.
 */
export interface Line extends Box {
  items: TextItem[];
  text: string;
  /** Dominant font size (by characters). */
  fontSize: number;
  baseline: number;
  bold: boolean;
  italic: boolean;
  monospace: boolean;
  /** Mean OCR confidence 0–1 (OCR lines only). */
  confidence?: number;
}

/** A horizontal gap wider than this many font sizes splits a row into separate lines (columns, cells). */
export const SEGMENT_GAP_EM = 0.9;

/** Groups text items into lines: rows by vertical overlap, split at wide horizontal gaps. */
export function buildLines(items: readonly TextItem[]): Line[] {
  const rows = groupRows(items.filter((item) => !item.rotated));
  const lines: Line[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x0 - b.x0);
    let current: TextItem[] = [];
    for (const item of row) {
      const previous = current[current.length - 1];
      if (previous) {
        const size = Math.min(previous.fontSize, item.fontSize);
        const gap = item.x0 - previous.x1;
        if (gap > Math.max(SEGMENT_GAP_EM * size, 4) && !isMarkerOnly(current)) {
          lines.push(makeLine(current));
          current = [];
        }
      }
      current.push(item);
    }
    if (current.length) lines.push(makeLine(current));
  }
  return lines;
}

/** Lines from rotated items (margin stamps, vertical labels), one per item. */
export function rotatedLines(items: readonly TextItem[]): Line[] {
  return items.filter((item) => item.rotated).map((item) => makeLine([item]));
}

function groupRows(items: readonly TextItem[]): TextItem[][] {
  const sorted = [...items].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const rows: { items: TextItem[]; y0: number; y1: number; baseline: number; size: number }[] = [];
  for (const item of sorted) {
    let joined = false;
    // Only the last few rows can overlap an item sorted by baseline.
    for (let index = rows.length - 1; index >= Math.max(0, rows.length - 4); index -= 1) {
      const row = rows[index];
      const overlap = Math.min(row.y1, item.y1) - Math.max(row.y0, item.y0);
      const smaller = Math.min(row.y1 - row.y0, item.y1 - item.y0);
      const sameBaseline = Math.abs(row.baseline - item.baseline) <= 0.25 * Math.min(row.size, item.fontSize);
      if (
        sameBaseline ||
        (smaller > 0 &&
          overlap >= 0.6 * smaller &&
          Math.abs(row.baseline - item.baseline) <= 0.5 * Math.max(row.size, item.fontSize))
      ) {
        row.items.push(item);
        row.y0 = Math.min(row.y0, item.y0);
        row.y1 = Math.max(row.y1, item.y1);
        joined = true;
        break;
      }
    }
    if (!joined)
      rows.push({ items: [item], y0: item.y0, y1: item.y1, baseline: item.baseline, size: item.fontSize });
  }
  return rows.map((row) => row.items);
}

export function makeLine(items: TextItem[]): Line {
  let text = '';
  let previous: TextItem | undefined;
  // One pass for the text, the extent, and the characters per style and per (half-point) size.
  let total = 0;
  let boldChars = 0;
  let italicChars = 0;
  let monospaceChars = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let confidenceSum = 0;
  let confidences = 0;
  const sizes = new Map<number, number>();
  for (const item of items) {
    if (previous) {
      const gap = item.x0 - previous.x1;
      const needsSpace =
        gap > 0.12 * Math.min(previous.fontSize, item.fontSize) &&
        !text.endsWith(' ') &&
        !item.text.startsWith(' ');
      if (needsSpace) text += ' ';
    }
    text += item.text;
    previous = item;
    const chars = Math.max(1, item.text.trim().length);
    total += chars;
    if (item.bold) boldChars += chars;
    if (item.italic) italicChars += chars;
    if (item.monospace) monospaceChars += chars;
    x0 = Math.min(x0, item.x0);
    y0 = Math.min(y0, item.y0);
    x1 = Math.max(x1, item.x1);
    y1 = Math.max(y1, item.y1);
    if (item.confidence !== undefined) {
      confidenceSum += item.confidence;
      confidences += 1;
    }
    const size = Math.round(item.fontSize * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + chars);
  }
  // The size with the most characters (the larger one on a tie).
  let fontSize = 0;
  let fontSizeChars = -1;
  for (const [size, chars] of sizes) {
    if (chars > fontSizeChars || (chars === fontSizeChars && size > fontSize)) {
      fontSize = size;
      fontSizeChars = chars;
    }
  }
  // The baseline of the items in the dominant size (of all items when none is).
  let baselineSum = 0;
  let mainCount = 0;
  for (const item of items) {
    if (Math.abs(item.fontSize - fontSize) < 0.5 * fontSize) {
      baselineSum += item.baseline;
      mainCount += 1;
    }
  }
  if (mainCount === 0) for (const item of items) baselineSum += item.baseline;
  // One object shape for every line: the optional confidence is added afterwards, not spread in.
  const line: Line = {
    items,
    text: text.replace(/\s+/g, ' ').trim(),
    x0,
    y0,
    x1,
    y1,
    fontSize,
    baseline: baselineSum / (mainCount || items.length),
    bold: boldChars / total >= 0.6,
    italic: italicChars / total >= 0.6,
    monospace: monospaceChars / total >= 0.8,
  };
  if (confidences) line.confidence = confidenceSum / confidences;
  return line;
}

const BULLET = /^[•◦▪▫‣⁃●○■□◆◇►▸▹➢➤✓✔–—*·-]$/;
const ENUMERATOR = /^(\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxlcdm]{1,5}[.)])$/;

/** A segment holding only a list marker joins the text that follows it, however far away. */
function isMarkerOnly(items: readonly TextItem[]): boolean {
  const text = items
    .map((item) => item.text)
    .join('')
    .trim();
  return text.length > 0 && text.length <= 5 && (BULLET.test(text) || ENUMERATOR.test(text));
}
