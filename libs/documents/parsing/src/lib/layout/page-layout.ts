import { type Box, type PageContent, type PageSource, unionBox } from '../model/page-content.types';
import type { FurnitureType } from './furniture';
import { headingLevel, type LayoutStats } from './layout-stats';
import { readingOrder } from './reading-order';
import { detectTables, type TableRegion } from './tables';
import type { Line } from './text-lines';
import {
  escapeCell,
  escapeParagraphStart,
  isCaptionText,
  joinParagraphLines,
  listMarker,
} from './text-patterns';

/** Block types (docs/documents.md#output). */
export type LayoutBlockType =
  | 'title'
  | 'section_header'
  | 'text'
  | 'table'
  | 'figure'
  | 'caption'
  | 'page_number'
  | 'page_header'
  | 'page_footer';

/** A block of a page in reading order, before the document's markdown is assembled. */
export interface LayoutBlock {
  type: LayoutBlockType;
  /** Finer label of our layout analysis (paragraph, list_item, code, title…). */
  label: string;
  box: Box | null;
  /** The markdown this block contributes (the text itself for blocks kept out of the markdown). */
  markdown: string;
  /** False for page furniture and figures: they are not part of the document markdown. */
  inMarkdown: boolean;
  /** Consecutive list items are separated by one newline instead of a blank line. */
  listItem: boolean;
  confidence: { layout: number | null; ocr: number | null };
}

export interface PageLayoutInput {
  content: PageContent;
  /** Body lines (furniture and rotated text removed). */
  lines: readonly Line[];
  furniture: readonly { line: Line; type: FurnitureType }[];
  rotated: readonly Line[];
  stats: LayoutStats;
  source: PageSource;
}

export interface TitleState {
  /** The document title was already given to a block. */
  used: boolean;
}

type Element =
  | (Box & { kind: 'line'; line: Line })
  | (Box & { kind: 'table'; table: TableRegion })
  | (Box & { kind: 'figure' });

/** Lays out one page: tables, figures and paragraphs in reading order, typed and rendered as markdown. */
export function layoutPage(input: PageLayoutInput, title: TitleState): LayoutBlock[] {
  const { content, stats } = input;
  const pageArea = content.width * content.height;
  const { tables, remaining } = detectTables(input.lines, content.rules);
  const figures = content.images.filter((image) => {
    const area = (image.x1 - image.x0) * (image.y1 - image.y0);
    return (
      area >= 0.015 * pageArea &&
      area <= 0.9 * pageArea &&
      image.x1 - image.x0 >= 20 &&
      image.y1 - image.y0 >= 20
    );
  });
  const elements: Element[] = [
    ...remaining.map((line) => ({
      kind: 'line' as const,
      line,
      x0: line.x0,
      y0: line.y0,
      x1: line.x1,
      y1: line.y1,
    })),
    ...tables.map((table) => ({
      kind: 'table' as const,
      table,
      x0: table.x0,
      y0: table.y0,
      x1: table.x1,
      y1: table.y1,
    })),
    ...figures.map((figure) => {
      const { x0, y0, x1, y1 } = clip(figure, content);
      return { kind: 'figure' as const, x0, y0, x1, y1 };
    }),
  ];
  const ordered = readingOrder(elements, Math.max(6, 0.8 * stats.bodySize));
  const ocr = input.source === 'layout_ocr';
  const body: LayoutBlock[] = [];
  let group: Line[] = [];
  const flush = () => {
    if (group.length) body.push(paragraphBlock(group, stats, title, ocr, figures, tables));
    group = [];
  };
  for (const element of ordered) {
    if (element.kind === 'line') {
      if (group.length && breaksParagraph(group, element.line)) flush();
      group.push(element.line);
      continue;
    }
    flush();
    if (element.kind === 'table') body.push(tableBlock(element.table, ocr));
    else
      body.push({
        type: 'figure',
        label: 'figure',
        box: clip(element, content),
        markdown: '',
        inMarkdown: false,
        listItem: false,
        confidence: { layout: 0.8, ocr: null },
      });
  }
  flush();
  if (input.rotated.length) {
    const text = input.rotated.map((line) => line.text).join(' ');
    body.push({
      type: 'text',
      label: 'rotated_text',
      box: unionBox(input.rotated),
      markdown: escapeParagraphStart(text),
      inMarkdown: true,
      listItem: false,
      confidence: { layout: 0.5, ocr: ocrConfidence(input.rotated, ocr) },
    });
  }
  // Page numbers at the top read with the header, those at the bottom with the footer.
  const isTop = (entry: { line: Line; type: FurnitureType }) =>
    entry.type === 'page_header' || (entry.type === 'page_number' && entry.line.y0 < content.height / 2);
  const furniture = (top: boolean) =>
    input.furniture
      .filter((entry) => isTop(entry) === top)
      .sort((a, b) => a.line.y0 - b.line.y0 || a.line.x0 - b.line.x0)
      .map(({ line, type }) => furnitureBlock(line, type, ocr));
  const top = furniture(true);
  const bottom = furniture(false);
  return [...top, ...body, ...bottom].map((block): LayoutBlock => ({
    type: block.type,
    label: block.label,
    box: block.box ? clip(block.box, content) : null,
    markdown: block.markdown,
    inMarkdown: block.inMarkdown,
    listItem: block.listItem,
    confidence: block.confidence,
  }));
}

function clip(box: Box, page: { width: number; height: number }): Box {
  return {
    x0: Math.max(0, Math.min(page.width, box.x0)),
    y0: Math.max(0, Math.min(page.height, box.y0)),
    x1: Math.max(0, Math.min(page.width, box.x1)),
    y1: Math.max(0, Math.min(page.height, box.y1)),
  };
}

/** Whether `next` starts a new paragraph after the lines of `group`. */
function breaksParagraph(group: readonly Line[], next: Line): boolean {
  const previous = group[group.length - 1];
  const size = Math.max(previous.fontSize, next.fontSize);
  if (next.y0 < previous.y0 - 1) return true; // moved up: next column
  if (next.x0 > previous.x1 + size) return true; // beside, not below
  // OCR sizes are estimates: tolerate more variation before calling it a change of style.
  const tolerance = previous.confidence !== undefined ? 0.25 : 0.12;
  if (Math.abs(next.fontSize - previous.fontSize) > tolerance * size) return true;
  if (next.bold !== previous.bold || next.monospace !== previous.monospace) return true;
  if (next.baseline - previous.baseline > 1.55 * size) return true;
  if (listMarker(next.text) && !previous.monospace) return true;
  const left = group.reduce((least, line) => Math.min(least, line.x0), Infinity);
  const right = group.reduce((most, line) => Math.max(most, line.x1), -Infinity);
  const first = group[0];
  if (listMarker(first.text)) {
    // A list item continues on lines indented past its marker.
    return next.x0 <= first.x0 + 0.5 * size;
  }
  if (/[.!?:;"”)]$/.test(previous.text) && previous.x1 < right - 3 * size) return true; // short last line
  if (
    next.x0 > left + 1.2 * size &&
    next.x0 - left < 6 * size &&
    group.length >= 1 &&
    previous.x1 >= right - 3 * size &&
    !previous.monospace
  )
    return true; // first-line indent
  return false;
}

function paragraphBlock(
  lines: Line[],
  stats: LayoutStats,
  title: TitleState,
  ocr: boolean,
  figures: readonly Box[],
  tables: readonly TableRegion[],
): LayoutBlock {
  const box = unionBox(lines);
  const size = dominantSize(lines);
  const ocrScore = ocrConfidence(lines, ocr);
  // Every block of text has the same fields in the same order (one object shape for all of them).
  const block = (type: LayoutBlockType, label: string, markdown: string, layout: number): LayoutBlock => ({
    type,
    label,
    box,
    markdown,
    inMarkdown: true,
    listItem: label === 'list_item',
    confidence: { layout, ocr: ocrScore },
  });
  if (lines.every((line) => line.monospace) && !ocr) {
    const left = lines.reduce((least, line) => Math.min(least, line.x0), Infinity);
    const charWidth = Math.max(1, size * 0.6);
    const code = lines
      .map((line) => ' '.repeat(Math.max(0, Math.round((line.x0 - left) / charWidth))) + line.text)
      .join('\n');
    return block('text', 'code', `\`\`\`\n${code.replace(/```/g, '`\u200b``')}\n\`\`\``, 0.8);
  }
  const text = joinParagraphLines(lines.map((line) => line.text));
  const hasLetters = /\p{L}/u.test(text);
  // Larger type wins over a leading number: "1. Overview" in 16 pt is a numbered heading, not a list.
  if (hasLetters && text.length <= 200 && lines.length <= 3 && size >= stats.bodySize * stats.headingRatio) {
    if (
      !title.used &&
      stats.headingSizes.length > 0 &&
      size >= stats.headingSizes[0] - 0.25 &&
      size >= stats.bodySize * 1.3
    ) {
      title.used = true;
      return block('title', 'title', `# ${text}`, 0.85);
    }
    return block(
      'section_header',
      'section_header',
      `${'#'.repeat(headingLevel(stats, size))} ${text}`,
      0.85,
    );
  }
  const marker = listMarker(text);
  if (marker) {
    const numeric = /^\(?(\d{1,3})[.)]$/.exec(marker.marker);
    const bullet = numeric ? `${numeric[1]}.` : marker.ordered ? `- ${marker.marker}` : '-';
    return block('text', 'list_item', `${bullet} ${marker.rest}`, 0.85);
  }
  const near = (other: Box) =>
    Math.min(Math.abs(other.y1 - box.y0), Math.abs(box.y1 - other.y0)) <= 3 * size &&
    Math.min(other.x1, box.x1) > Math.max(other.x0, box.x0);
  if (isCaptionText(text) && (size <= stats.bodySize * 1.05 || figures.some(near) || tables.some(near))) {
    return block(
      'caption',
      'caption',
      escapeParagraphStart(text),
      figures.some(near) || tables.some(near) ? 0.85 : 0.65,
    );
  }
  const boldHeading =
    hasLetters &&
    lines.every((line) => line.bold) &&
    text.length <= 120 &&
    lines.length <= 2 &&
    !/[.,;:!?]$/.test(text) &&
    size >= stats.bodySize * 0.95;
  if (boldHeading) {
    return block('section_header', 'section_header', `${'#'.repeat(headingLevel(stats, size))} ${text}`, 0.7);
  }
  return block('text', 'paragraph', escapeParagraphStart(text), 0.9);
}

function tableBlock(table: TableRegion, ocr: boolean): LayoutBlock {
  const width = table.cells.reduce((widest, row) => Math.max(widest, row.length), -Infinity);
  const row = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => escapeCell(cells[index] ?? '')).join(' | ')} |`;
  const [header, ...rest] = table.cells;
  const markdown = [
    row(header),
    `| ${Array.from({ length: width }, () => '---').join(' | ')} |`,
    ...rest.map(row),
  ].join('\n');
  return {
    type: 'table',
    label: table.ruled ? 'table_ruled' : 'table',
    box: { x0: table.x0, y0: table.y0, x1: table.x1, y1: table.y1 },
    markdown,
    inMarkdown: true,
    listItem: false,
    confidence: { layout: table.confidence, ocr: ocrConfidence(table.lines, ocr) },
  };
}

function furnitureBlock(line: Line, type: FurnitureType, ocr: boolean): LayoutBlock {
  return {
    type,
    label: type,
    box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 },
    markdown: line.text,
    inMarkdown: false,
    listItem: false,
    confidence: { layout: type === 'page_number' ? 0.95 : 0.9, ocr: ocrConfidence([line], ocr) },
  };
}

function dominantSize(lines: readonly Line[]): number {
  const weights = new Map<number, number>();
  for (const line of lines) weights.set(line.fontSize, (weights.get(line.fontSize) ?? 0) + line.text.length);
  return [...weights.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
}

function ocrConfidence(lines: readonly Line[], ocr: boolean): number | null {
  if (!ocr) return null;
  const values = lines
    .filter((line) => line.confidence !== undefined)
    .map((line) => line.confidence as number);
  return values.length
    ? Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 1000) / 1000
    : null;
}
