import type { Box, PageContent, TextItem } from '../model/page-content.types';

/** A page the parse process could not read, with the reason pdf.js gave. */
export interface PageFailure {
  pageNumber: number;
  error: string;
}

/** What the parse process made of one page. */
export type PageOutcome = PageContent | PageFailure;

export function isPageFailure(outcome: PageOutcome): outcome is PageFailure {
  return 'error' in outcome;
}

/** A page of a packed batch: its size and how many items, images and rules it has in the arrays. */
type PackedPageHeader =
  | (Pick<PageContent, 'pageNumber' | 'width' | 'height' | 'truncated'> & {
      items: number;
      images: number;
      rules: number;
    })
  | PageFailure;

/**
 * A batch of pages as a few flat arrays, the form pages cross the parse process's IPC channel in.
 * Serialising one object per text item was the parse process's largest cost after pdf.js itself
 * (`writeBuffer` ≈ 14 % of its CPU on a 200-page report); typed arrays and one string are copied as
 * bytes, and one message per batch instead of one per page saves the per-message cost on both sides.
 */
export interface PackedPages {
  pages: PackedPageHeader[];
  /** Every item's text, concatenated. */
  text: string;
  /** Length of each item's text in `text` (UTF-16 code units). */
  lengths: Uint32Array;
  /** x0, y0, x1, y1, baseline, fontSize, confidence (NaN when absent) per item. */
  numbers: Float64Array;
  /** Bit flags per item: 1 bold, 2 italic, 4 monospace, 8 rotated. */
  flags: Uint8Array;
  /** x0, y0, x1, y1 of each page's images, then of its rules. */
  boxes: Float64Array;
}

const NUMBERS = 7;
const BOLD = 1;
const ITALIC = 2;
const MONOSPACE = 4;
const ROTATED = 8;

export function packPages(outcomes: readonly PageOutcome[]): PackedPages {
  let itemCount = 0;
  let boxCount = 0;
  for (const outcome of outcomes) {
    if (isPageFailure(outcome)) continue;
    itemCount += outcome.items.length;
    boxCount += outcome.images.length + outcome.rules.length;
  }
  const lengths = new Uint32Array(itemCount);
  const numbers = new Float64Array(itemCount * NUMBERS);
  const flags = new Uint8Array(itemCount);
  const boxes = new Float64Array(boxCount * 4);
  const texts: string[] = new Array(itemCount);
  const pages: PackedPageHeader[] = [];
  let index = 0;
  let boxAt = 0;
  const putBox = (box: Box) => {
    boxes[boxAt++] = box.x0;
    boxes[boxAt++] = box.y0;
    boxes[boxAt++] = box.x1;
    boxes[boxAt++] = box.y1;
  };
  for (const outcome of outcomes) {
    if (isPageFailure(outcome)) {
      pages.push({ pageNumber: outcome.pageNumber, error: outcome.error });
      continue;
    }
    const { pageNumber, width, height, truncated, items, images, rules } = outcome;
    pages.push({
      pageNumber,
      width,
      height,
      truncated,
      items: items.length,
      images: images.length,
      rules: rules.length,
    });
    for (const item of items) {
      texts[index] = item.text;
      lengths[index] = item.text.length;
      const at = index * NUMBERS;
      numbers[at] = item.x0;
      numbers[at + 1] = item.y0;
      numbers[at + 2] = item.x1;
      numbers[at + 3] = item.y1;
      numbers[at + 4] = item.baseline;
      numbers[at + 5] = item.fontSize;
      numbers[at + 6] = item.confidence ?? Number.NaN;
      flags[index] =
        (item.bold ? BOLD : 0) |
        (item.italic ? ITALIC : 0) |
        (item.monospace ? MONOSPACE : 0) |
        (item.rotated ? ROTATED : 0);
      index += 1;
    }
    images.forEach(putBox);
    rules.forEach(putBox);
  }
  return { pages, text: texts.join(''), lengths, numbers, flags, boxes };
}

export function unpackPages(packed: PackedPages): PageOutcome[] {
  const { text, lengths, numbers, flags, boxes } = packed;
  let index = 0;
  let offset = 0;
  let boxAt = 0;
  const takeBoxes = (count: number): Box[] => {
    const list: Box[] = new Array(count);
    for (let box = 0; box < count; box += 1, boxAt += 4)
      list[box] = { x0: boxes[boxAt], y0: boxes[boxAt + 1], x1: boxes[boxAt + 2], y1: boxes[boxAt + 3] };
    return list;
  };
  return packed.pages.map((header): PageOutcome => {
    if ('error' in header) return { pageNumber: header.pageNumber, error: header.error };
    const items: TextItem[] = new Array(header.items);
    for (let item = 0; item < header.items; item += 1, index += 1) {
      const at = index * NUMBERS;
      const confidence = numbers[at + 6];
      const textItem: TextItem = {
        text: text.slice(offset, offset + lengths[index]),
        x0: numbers[at],
        y0: numbers[at + 1],
        x1: numbers[at + 2],
        y1: numbers[at + 3],
        baseline: numbers[at + 4],
        fontSize: numbers[at + 5],
        bold: (flags[index] & BOLD) !== 0,
        italic: (flags[index] & ITALIC) !== 0,
        monospace: (flags[index] & MONOSPACE) !== 0,
        rotated: (flags[index] & ROTATED) !== 0,
      };
      // Added afterwards rather than spread in: every native item keeps one object shape.
      if (!Number.isNaN(confidence)) textItem.confidence = confidence;
      items[item] = textItem;
      offset += lengths[index];
    }
    const images = takeBoxes(header.images);
    const rules = takeBoxes(header.rules);
    return {
      pageNumber: header.pageNumber,
      width: header.width,
      height: header.height,
      items,
      images,
      rules,
      truncated: header.truncated,
    };
  });
}
