import type { PageContent, TextItem } from '../model/page-content.types';

/**
 * A page's text items as a few flat arrays, the form a page crosses the parse process's IPC channel
 * in. Serialising one object per text item was the parse process's largest cost after pdf.js
 * itself (`writeBuffer` ≈ 14 % of its CPU on a 200-page report); typed arrays and one string are
 * copied as bytes.
 */
export interface PackedPageContent extends Omit<PageContent, 'items'> {
  /** Every item's text, concatenated. */
  text: string;
  /** Length of each item's text in `text` (UTF-16 code units). */
  lengths: Uint32Array;
  /** x0, y0, x1, y1, baseline, fontSize, confidence (NaN when absent) per item. */
  numbers: Float64Array;
  /** Bit flags per item: 1 bold, 2 italic, 4 monospace, 8 rotated. */
  flags: Uint8Array;
}

const NUMBERS = 7;
const BOLD = 1;
const ITALIC = 2;
const MONOSPACE = 4;
const ROTATED = 8;

export function packPageContent(page: PageContent): PackedPageContent {
  const { items, ...rest } = page;
  const lengths = new Uint32Array(items.length);
  const numbers = new Float64Array(items.length * NUMBERS);
  const flags = new Uint8Array(items.length);
  const texts: string[] = new Array(items.length);
  items.forEach((item, index) => {
    texts[index] = item.text;
    lengths[index] = item.text.length;
    numbers.set(
      [item.x0, item.y0, item.x1, item.y1, item.baseline, item.fontSize, item.confidence ?? Number.NaN],
      index * NUMBERS,
    );
    flags[index] =
      (item.bold ? BOLD : 0) |
      (item.italic ? ITALIC : 0) |
      (item.monospace ? MONOSPACE : 0) |
      (item.rotated ? ROTATED : 0);
  });
  return { ...rest, text: texts.join(''), lengths, numbers, flags };
}

export function unpackPageContent(packed: PackedPageContent): PageContent {
  const { text, lengths, numbers, flags, ...rest } = packed;
  const items: TextItem[] = new Array(lengths.length);
  let offset = 0;
  for (let index = 0; index < lengths.length; index += 1) {
    const at = index * NUMBERS;
    const confidence = numbers[at + 6];
    items[index] = {
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
      ...(Number.isNaN(confidence) ? {} : { confidence }),
    };
    offset += lengths[index];
  }
  return { ...rest, items };
}
