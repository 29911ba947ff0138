import type { DomElement } from '../dom/dom.types';
import { tagOf } from '../dom/dom.types';
import { query } from '../dom/query.util';

const STRUCTURE = new Set([
  'table',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'form',
]);
const MAX_COLSPAN = 20;

interface Row {
  cells: DomElement[];
}

function rowsOf(table: DomElement): Row[] {
  const rows: Row[] = [];
  const visit = (parent: DomElement): void => {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      const tag = tagOf(child);
      if (tag === 'tr') {
        const cells: DomElement[] = [];
        for (let c = child.firstElementChild; c; c = c.nextElementSibling) {
          const ct = tagOf(c);
          if (ct === 'td' || ct === 'th') cells.push(c);
        }
        if (cells.length > 0) rows.push({ cells });
      } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
        visit(child);
      }
    }
  };
  visit(table);
  return rows;
}

/** Whether a table holds page layout (blocks, nested tables) rather than data. */
function isLayoutTable(table: DomElement, rows: readonly Row[]): boolean {
  if (rows.length === 0) return true;
  const role = table.getAttribute('role');
  if (role === 'presentation' || role === 'none') return true;
  const width = rows.reduce((widest, r) => Math.max(widest, r.cells.length), -Infinity);
  if (width <= 1) return true;
  for (const row of rows) {
    for (const cell of row.cells) {
      if (query(cell, [...STRUCTURE].join(','))) return true;
    }
  }
  return false;
}

function span(cell: DomElement): number {
  const n = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

/** Whether a table holds data (rows of cells), as opposed to page layout. */
export function isDataTable(table: DomElement): boolean {
  return !isLayoutTable(table, rowsOf(table));
}

/**
 * A GFM pipe table, or undefined for layout tables (which render as ordinary blocks). The first row is
 * the header row (GFM needs one); `colspan` cells are padded with empty cells; cell text is one line.
 */
export function renderTable(table: DomElement, renderCell: (cell: DomElement) => string): string | undefined {
  const rows = rowsOf(table);
  if (isLayoutTable(table, rows)) return undefined;
  const matrix = rows.map((row) => {
    const out: string[] = [];
    for (const cell of row.cells) {
      const text = renderCell(cell).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
      out.push(text);
      for (let i = 1; i < span(cell); i++) out.push('');
    }
    return out;
  });
  const width = matrix.reduce((widest, r) => Math.max(widest, r.length), -Infinity);
  if (matrix.every((r) => r.every((c) => c === ''))) return '';
  const line = (cells: string[]) => {
    const padded = [...cells];
    while (padded.length < width) padded.push('');
    return `| ${padded.join(' | ')} |`;
  };
  const lines = [line(matrix[0]), line(new Array<string>(width).fill('---'))];
  for (const row of matrix.slice(1)) lines.push(line(row));
  const caption = query(table, 'caption');
  const captionText = caption ? renderCell(caption).replace(/\s+/g, ' ').trim() : '';
  return captionText ? `${captionText}\n\n${lines.join('\n')}` : lines.join('\n');
}
