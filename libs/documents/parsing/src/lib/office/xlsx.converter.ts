import ExcelJS from 'exceljs';

import { markdownOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { gridToHtml, gridToMarkdown } from './table-markdown.util';
import { escapeHtml } from './xml.util';
import { DocumentFormatError } from './zip.util';

const MAX_ROWS = 20_000;
const MAX_COLUMNS = 200;

/** Excel workbooks (.xlsx, .xlsm) through exceljs: one `## <sheet>` section and markdown table per sheet. */
export async function convertXlsx(
  data: Buffer,
  _filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch (error) {
    throw new DocumentFormatError(
      `The file is not a readable Excel workbook: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const sheets: { name: string; rows: string[][] }[] = [];
  workbook.eachSheet((sheet) => {
    const rows: string[][] = [];
    const rowCount = Math.min(sheet.rowCount, MAX_ROWS);
    const columnCount = Math.min(sheet.columnCount, MAX_COLUMNS);
    for (let r = 1; r <= rowCount; r += 1) {
      const row = sheet.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= columnCount; c += 1) cells.push(cellText(row.getCell(c)));
      rows.push(cells);
    }
    sheets.push({ name: sheet.name, rows });
  });
  const markdown = sheets
    .map((sheet) => `## ${sheet.name}\n\n${gridToMarkdown(sheet.rows)}`.trim())
    .join('\n\n');
  const html = sheets.map((sheet) => `<h2>${escapeHtml(sheet.name)}</h2>${gridToHtml(sheet.rows)}`).join('');
  const creator = workbook.creator?.trim();
  const title = workbook.title?.trim();
  return markdownOutput(markdown, html, options, {
    ...(title ? { title } : {}),
    ...(creator ? { author: creator } : {}),
  });
}

function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return formatDate(value);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('hyperlink' in value) return String((value as { text?: unknown }).text ?? value.hyperlink);
    if ('formula' in value || 'sharedFormula' in value) {
      const result = (value as { result?: unknown }).result;
      if (result instanceof Date) return formatDate(result);
      if (result && typeof result === 'object' && 'error' in result)
        return String((result as { error: unknown }).error);
      return result === undefined || result === null ? '' : String(result);
    }
    if ('error' in value) return String(value.error);
    return cell.text ?? '';
  }
  return String(value);
}

/** Dates as ISO dates (time only when it is not midnight). */
function formatDate(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}
