import { escapeCell } from '../layout/text-patterns';
import { escapeHtml } from './xml.util';

/** A grid as a GitHub markdown table (first row as header); empty trailing rows/columns dropped. */
export function gridToMarkdown(rows: readonly (readonly string[])[]): string {
  const grid = trimGrid(rows);
  if (grid.length === 0) return '';
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, index) => escapeCell(row[index] ?? '')).join(' | ')} |`;
  return [
    line(grid[0]),
    `| ${Array.from({ length: width }, () => '---').join(' | ')} |`,
    ...grid.slice(1).map(line),
  ].join('\n');
}

export function gridToHtml(rows: readonly (readonly string[])[]): string {
  const grid = trimGrid(rows);
  if (grid.length === 0) return '';
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  const cells = (row: readonly string[], tag: 'th' | 'td') =>
    Array.from({ length: width }, (_, index) => `<${tag}>${escapeHtml(row[index] ?? '')}</${tag}>`).join('');
  return `<table><thead><tr>${cells(grid[0], 'th')}</tr></thead><tbody>${grid
    .slice(1)
    .map((row) => `<tr>${cells(row, 'td')}</tr>`)
    .join('')}</tbody></table>`;
}

function trimGrid(rows: readonly (readonly string[])[]): string[][] {
  const grid = rows.map((row) => row.map((cell) => cell.trim()));
  while (grid.length && grid[grid.length - 1].every((cell) => cell === '')) grid.pop();
  let width = Math.max(0, ...grid.map((row) => row.length));
  while (width > 0 && grid.every((row) => (row[width - 1] ?? '') === '')) width -= 1;
  return grid.map((row) => row.slice(0, width));
}
