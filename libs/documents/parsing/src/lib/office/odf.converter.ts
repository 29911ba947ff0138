import { htmlOutput, markdownOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { gridToHtml, gridToMarkdown } from './table-markdown.util';
import { escapeHtml, findAll, findFirst, parseXml, textOf, type XmlNode } from './xml.util';
import { DocumentFormatError, openZip, readEntry } from './zip.util';

/** Columns and rows kept from one spreadsheet table (repeated empty cells are common and huge). */
const MAX_COLUMNS = 200;
const MAX_ROWS = 20_000;

/**
 * OpenDocument text, spreadsheets and presentations (.odt, .ods, .odp): a small converter of our own
 * over `content.xml` (no maintained npm converter exists; the format is plain XML in a ZIP).
 */
export async function convertOdf(
  kind: 'odt' | 'ods' | 'odp',
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
  const zip = await openZip(data);
  const content = await readEntry(zip, 'content.xml');
  if (!content)
    throw new DocumentFormatError('The file is not an OpenDocument file (content.xml is missing)');
  const metadata = odfMetadata(await readEntry(zip, 'meta.xml'));
  const body = findFirst(parseXml(content), 'office:body');
  if (!body) throw new DocumentFormatError('content.xml has no office:body');
  if (kind === 'ods') {
    const sheets = findAll(body.children, 'table:table').map((table) => ({
      name: table.attrs['table:name'] ?? 'Sheet',
      rows: tableGrid(table),
    }));
    const markdown = sheets
      .map((sheet) => `## ${sheet.name}\n\n${gridToMarkdown(sheet.rows)}`.trim())
      .join('\n\n');
    const html = sheets
      .map((sheet) => `<h2>${escapeHtml(sheet.name)}</h2>${gridToHtml(sheet.rows)}`)
      .join('');
    return markdownOutput(markdown, html, options, metadata);
  }
  if (kind === 'odp') {
    const slides = findAll(body.children, 'draw:page');
    const html = slides
      .map((slide, index) => {
        const title = slideTitle(slide);
        const parts = slide.children
          .flatMap((child) => (child === title.frame ? [] : [blockHtml(child)]))
          .join('');
        return `<section><h2>${escapeHtml(title.text || `Slide ${index + 1}`)}</h2>${parts}</section>`;
      })
      .join('');
    return htmlOutput(`<html><body>${html}</body></html>`, filename, options, true, metadata);
  }
  const text = findFirst(body.children, 'office:text') ?? body;
  return htmlOutput(
    `<html><body>${text.children.map(blockHtml).join('')}</body></html>`,
    filename,
    options,
    true,
    metadata,
  );
}

function odfMetadata(xml: string | undefined): Record<string, string> {
  if (!xml) return {};
  const nodes = parseXml(xml);
  const read = (name: string) => {
    const node = findFirst(nodes, name);
    return node ? textOf(node).trim() || undefined : undefined;
  };
  const entries = {
    title: read('dc:title'),
    author: read('meta:initial-creator') ?? read('dc:creator'),
    description: read('dc:description') ?? read('dc:subject'),
    language: read('dc:language'),
  };
  return Object.fromEntries(
    Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function slideTitle(slide: XmlNode): { text: string; frame?: XmlNode } {
  const frame = slide.children.find(
    (child) => child.name === 'draw:frame' && /title/i.test(child.attrs['presentation:class'] ?? ''),
  );
  return { text: frame ? textOf(frame).replace(/\s+/g, ' ').trim() : '', frame };
}

/** Block-level ODF elements as HTML. */
function blockHtml(node: XmlNode): string {
  switch (node.name) {
    case 'text:h': {
      const level = Math.min(6, Math.max(1, Number(node.attrs['text:outline-level'] ?? '1') || 1));
      return `<h${level}>${inlineHtml(node.children)}</h${level}>`;
    }
    case 'text:p':
      return `<p>${inlineHtml(node.children)}</p>`;
    case 'text:list':
      return `<ul>${node.children
        .filter((child) => child.name === 'text:list-item' || child.name === 'text:list-header')
        .map((item) => `<li>${item.children.map(listItemPart).join('')}</li>`)
        .join('')}</ul>`;
    case 'table:table':
      return gridToHtml(tableGrid(node));
    case 'text:section':
    case 'draw:frame':
    case 'draw:text-box':
    case 'draw:custom-shape':
    case 'draw:g':
    case 'text:index-body':
    case 'text:table-of-content':
      return node.children.map(blockHtml).join('');
    default:
      return '';
  }
}

/** Inside a list item a single paragraph stays inline, nested lists nest. */
function listItemPart(node: XmlNode): string {
  if (node.name === 'text:p' || node.name === 'text:h') return inlineHtml(node.children);
  return blockHtml(node);
}

function inlineHtml(nodes: readonly XmlNode[]): string {
  return nodes
    .map((node) => {
      if (node.text !== undefined) return escapeHtml(node.text);
      switch (node.name) {
        case 'text:s':
          return ' '.repeat(Math.min(100, Number(node.attrs['text:c'] ?? '1') || 1));
        case 'text:tab':
          return ' ';
        case 'text:line-break':
          return '<br>';
        case 'text:a':
          return `<a href="${escapeHtml(node.attrs['xlink:href'] ?? '')}">${inlineHtml(node.children)}</a>`;
        case 'text:note':
        case 'office:annotation':
          return '';
        default:
          return inlineHtml(node.children);
      }
    })
    .join('');
}

/** A table's cells as text, with repeated rows/columns expanded up to the limits. */
function tableGrid(table: XmlNode): string[][] {
  const rows: string[][] = [];
  const rowNodes = findRows(table);
  for (const row of rowNodes) {
    const cells: string[] = [];
    for (const cell of row.children.filter(
      (child) => child.name === 'table:table-cell' || child.name === 'table:covered-table-cell',
    )) {
      const repeat = Math.min(MAX_COLUMNS, Number(cell.attrs['table:number-columns-repeated'] ?? '1') || 1);
      const text = cell.children
        .filter((child) => child.name === 'text:p' || child.name === 'text:h')
        .map((paragraph) => textOf(paragraph).replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' ');
      for (let index = 0; index < repeat && cells.length < MAX_COLUMNS; index += 1) cells.push(text);
    }
    const repeat = Number(row.attrs['table:number-rows-repeated'] ?? '1') || 1;
    const empty = cells.every((cell) => cell === '');
    for (
      let index = 0;
      index < (empty ? 1 : Math.min(repeat, MAX_ROWS)) && rows.length < MAX_ROWS;
      index += 1
    )
      rows.push(cells);
  }
  return rows;
}

function findRows(node: XmlNode): XmlNode[] {
  const rows: XmlNode[] = [];
  for (const child of node.children) {
    if (child.name === 'table:table-row') rows.push(child);
    else if (
      child.name === 'table:table-header-rows' ||
      child.name === 'table:table-rows' ||
      child.name === 'table:table-row-group'
    )
      for (const row of findRows(child)) rows.push(row);
  }
  return rows;
}
