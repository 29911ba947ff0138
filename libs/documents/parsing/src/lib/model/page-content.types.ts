/** An axis-aligned box in page points, origin at the top-left corner of the (rotated) page. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A run of text with one font on one baseline, as a PDF draws it or as OCR read it. */
export interface TextItem extends Box {
  text: string;
  /** Baseline y (top-left origin). */
  baseline: number;
  /** Glyph height in points (font size for native text, estimated for OCR words). */
  fontSize: number;
  bold: boolean;
  italic: boolean;
  monospace: boolean;
  /** True for text not drawn left-to-right on a horizontal baseline (margin stamps, rotated labels). */
  rotated: boolean;
  /** OCR word confidence 0–1; absent for native text. */
  confidence?: number;
}

/** Where the text of a page came from (docs/documents.md#output `source`). */
export type PageSource = 'native_text' | 'layout_ocr';

/** Everything the layout analysis needs about one page. */
export interface PageContent {
  pageNumber: number;
  /** Page size in points at scale 1 (1 point = 1 px at 72 dpi). */
  width: number;
  height: number;
  items: TextItem[];
  /** Images drawn on the page (figures, scans). */
  images: Box[];
  /** Thin filled or stroked rectangles and lines (table rulings, separators). */
  rules: Box[];
  /** True when the page had more text items than the extraction cap. */
  truncated: boolean;
}

export interface PdfInfo {
  totalPages: number;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  language?: string;
  creationDate?: string;
  modificationDate?: string;
}

export function boxWidth(box: Box): number {
  return box.x1 - box.x0;
}

export function boxHeight(box: Box): number {
  return box.y1 - box.y0;
}

export function unionBox(boxes: readonly Box[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const box of boxes) {
    x0 = Math.min(x0, box.x0);
    y0 = Math.min(y0, box.y0);
    x1 = Math.max(x1, box.x1);
    y1 = Math.max(y1, box.y1);
  }
  return { x0, y0, x1, y1 };
}
