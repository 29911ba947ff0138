import { type Box, unionBox } from '../model/page-content.types';
import type { Line } from './text-lines';

/** A table found from the alignment of lines (and rulings when the PDF draws them). */
export interface TableRegion extends Box {
  cells: string[][];
  lines: Line[];
  ruled: boolean;
  confidence: number;
}

interface Row extends Box {
  lines: Line[];
  baseline: number;
  size: number;
}

interface Band {
  x0: number;
  x1: number;
}

/** Groups lines into visual rows (same baseline), top to bottom; lines of a row left to right. */
export function groupRows(lines: readonly Line[]): Row[] {
  const rows: Row[] = [];
  for (const line of [...lines].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0)) {
    const row = rows.find(
      (candidate) =>
        Math.abs(candidate.baseline - line.baseline) <= 0.4 * Math.min(candidate.size, line.fontSize) ||
        Math.min(candidate.y1, line.y1) - Math.max(candidate.y0, line.y0) >=
          0.7 * Math.min(candidate.y1 - candidate.y0, line.y1 - line.y0),
    );
    if (row) {
      row.lines.push(line);
      Object.assign(row, unionBox([row, line]));
    } else
      rows.push({
        lines: [line],
        baseline: line.baseline,
        size: line.fontSize,
        x0: line.x0,
        y0: line.y0,
        x1: line.x1,
        y1: line.y1,
      });
  }
  for (const row of rows) row.lines.sort((a, b) => a.x0 - b.x0);
  return rows.sort((a, b) => a.y0 - b.y0);
}

/**
 * Finds tables: runs of consecutive rows with several cells whose horizontal extents line up in
 * shared column bands. Two full-width text columns (prose) are told apart from a two-column table
 * by how much of each band the lines fill and how long they are.
 */
export function detectTables(
  lines: readonly Line[],
  rules: readonly Box[],
): { tables: TableRegion[]; remaining: Line[] } {
  const rows = groupRows(lines);
  const tables: TableRegion[] = [];
  let index = 0;
  while (index < rows.length) {
    if (rows[index].lines.length < 2) {
      index += 1;
      continue;
    }
    const end = extendRun(rows, index);
    const table = end > index ? validate(rows.slice(index, end + 1), rules) : undefined;
    if (table) {
      tables.push(table);
      index = end + 1;
    } else index += 1;
  }
  const used = new Set(tables.flatMap((table) => table.lines));
  return { tables, remaining: lines.filter((line) => !used.has(line)) };
}

function extendRun(rows: readonly Row[], start: number): number {
  let end = start;
  const pitch = Math.max(rows[start].y1 - rows[start].y0, rows[start].size);
  for (let next = start + 1; next < rows.length; next += 1) {
    const gap = rows[next].y0 - rows[end].y1;
    if (gap > Math.max(1.6 * pitch, 10)) break;
    if (rows[next].lines.length >= 2) {
      end = next;
      continue;
    }
    // A one-line row continues the table only as a wrapped cell (not in the first column).
    const firstCellX = rows
      .slice(start, end + 1)
      .reduce((least, row) => Math.min(least, row.lines[0].x0), Infinity);
    const line = rows[next].lines[0];
    if (line.x0 > firstCellX + 2 * line.fontSize && gap < 0.8 * pitch) {
      end = next;
      continue;
    }
    break;
  }
  return end;
}

function columnBands(rows: readonly Row[]): Band[] {
  const intervals = rows
    .flatMap((row) => row.lines.map((line) => ({ x0: line.x0, x1: line.x1 })))
    .sort((a, b) => a.x0 - b.x0);
  const bands: Band[] = [];
  for (const interval of intervals) {
    const last = bands[bands.length - 1];
    if (last && interval.x0 <= last.x1 + 1) last.x1 = Math.max(last.x1, interval.x1);
    else bands.push({ ...interval });
  }
  return bands;
}

function validate(rows: Row[], rules: readonly Box[]): TableRegion | undefined {
  const bands = columnBands(rows);
  if (bands.length < 2 || bands.length > 30) return undefined;
  const lines = rows.flatMap((row) => row.lines);
  const box = unionBox(lines);
  const horizontalRules = rules.filter(
    (rule) =>
      rule.y1 - rule.y0 <= 3 &&
      rule.y0 >= box.y0 - 20 &&
      rule.y1 <= box.y1 + 20 &&
      Math.min(rule.x1, box.x1) - Math.max(rule.x0, box.x0) >= 0.5 * (box.x1 - box.x0),
  );
  const ruled = horizontalRules.length >= 2;
  const bandOf = (line: Line) => {
    const center = (line.x0 + line.x1) / 2;
    const found = bands.findIndex((band) => center >= band.x0 - 1 && center <= band.x1 + 1);
    return found === -1 ? 0 : found;
  };
  const filledRows = rows.filter((row) => new Set(row.lines.map(bandOf)).size >= 2).length;
  if (filledRows < 2 || filledRows < 0.6 * rows.length) return undefined;
  const headerBold = rows[0].lines.every((line) => line.bold);
  if (!ruled && rows.length < 3 && !headerBold) return undefined;
  const averageChars = lines.reduce((sum, line) => sum + line.text.length, 0) / lines.length;
  if (bands.length === 2) {
    const fill =
      lines.reduce((sum, line) => {
        const band = bands[bandOf(line)];
        return sum + (line.x1 - line.x0) / Math.max(1, band.x1 - band.x0);
      }, 0) / lines.length;
    if ((fill > 0.7 && averageChars > 25) || (!ruled && averageChars > 45)) return undefined;
  } else if (averageChars > 80) return undefined;

  const cells: string[][] = [];
  let previousTop: Row | undefined;
  for (const row of rows) {
    const texts = bands.map(() => [] as string[]);
    for (const line of row.lines) texts[bandOf(line)].push(line.text);
    const firstEmpty = texts[0].length === 0;
    const continuation =
      firstEmpty &&
      cells.length > 0 &&
      previousTop !== undefined &&
      row.y0 - previousTop.y1 < 0.8 * Math.max(row.size, row.y1 - row.y0) &&
      row.lines.length < bands.length;
    if (continuation) {
      const last = cells[cells.length - 1];
      texts.forEach((parts, column) => {
        if (parts.length) last[column] = [last[column], ...parts].filter(Boolean).join(' ');
      });
    } else cells.push(texts.map((parts) => parts.join(' ')));
    previousTop = row;
  }
  return { ...box, cells, lines, ruled, confidence: ruled ? 0.9 : headerBold ? 0.8 : 0.7 };
}
