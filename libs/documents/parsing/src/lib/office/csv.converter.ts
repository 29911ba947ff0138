import { markdownOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { gridToHtml, gridToMarkdown } from './table-markdown.util';

const MAX_ROWS = 50_000;

/** CSV (RFC 4180, delimiter sniffed among `,`, `;`, tab and `|`) as one markdown table, first row as header. */
export function convertCsv(data: Buffer, _filename: string, options: OfficeConvertOptions): OfficeOutput {
  const text = decodeText(data);
  const rows = parseCsv(text, sniffDelimiter(text));
  return markdownOutput(gridToMarkdown(rows), gridToHtml(rows), options);
}

function decodeText(data: Buffer): string {
  const utf8 = new TextDecoder('utf-8', { fatal: false }).decode(data);
  const text = utf8.includes('\uFFFD') ? data.toString('latin1') : utf8;
  return text.replace(/^\uFEFF/, '');
}

export function sniffDelimiter(text: string): string {
  const sample = text.split(/\r?\n/).slice(0, 10).filter(Boolean);
  let best = ',';
  let bestScore = -1;
  for (const delimiter of [',', ';', '\t', '|']) {
    const counts = sample.map((line) => parseCsv(line, delimiter)[0]?.length ?? 0);
    const consistent = counts.length > 0 && counts.every((count) => count === counts[0]) ? counts[0] : 0;
    if (consistent > 1 && consistent > bestScore) {
      best = delimiter;
      bestScore = consistent;
    }
  }
  return best;
}

/** RFC 4180: quoted fields may hold delimiters, doubled quotes and line breaks. */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 1;
        } else quoted = false;
      } else field += char;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      if (rows.length >= MAX_ROWS) return rows;
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
