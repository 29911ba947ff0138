import type { PageContent, TextItem } from '../model/page-content.types';
import type { OcrResult, OcrWord } from './ocr-engine';

const ASCENDING = /[A-Z0-9bdfhklt!?'"()/\\|{}[\]#%&@ßÀ-ÞÄÖÜ]/;
const DESCENDING = /[gjpqyQ,;()[\]{}|]/;

/**
 * How tall a word's box is relative to its font size, from the letters it contains: x-height
 * letters alone are about half the size, ascenders add to the top, descenders to the bottom.
 */
function heightRatio(text: string): number {
  return (ASCENDING.test(text) ? 0.73 : 0.52) + (DESCENDING.test(text) ? 0.21 : 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Turns OCR words into page content in points, so OCR pages go through the same layout analysis
 * as native text. Box heights depend on the letters, so each line's font size is the median of its
 * words' heights divided by what their letters predict; the baseline is where descender-free words sit.
 */
export function ocrToContent(
  result: OcrResult,
  pageNumber: number,
  pointSize?: { width: number; height: number },
): PageContent {
  const width = pointSize?.width ?? result.width;
  const height = pointSize?.height ?? result.height;
  const scaleX = result.width > 0 ? width / result.width : 1;
  const scaleY = result.height > 0 ? height / result.height : 1;
  const byLine = new Map<string, OcrWord[]>();
  for (const word of result.words) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  const items: TextItem[] = [];
  for (const words of byLine.values()) {
    const sizes = words
      .filter((word) => /[\p{L}\p{N}]/u.test(word.text))
      .map((word) => (word.y1 - word.y0) / heightRatio(word.text));
    const fontSize = (sizes.length ? median(sizes) : median(words.map((word) => word.y1 - word.y0))) * scaleY;
    const flat = words.filter((word) => !DESCENDING.test(word.text));
    const baseline = flat.length
      ? median(flat.map((word) => word.y1)) * scaleY
      : median(words.map((word) => word.y1)) * scaleY - 0.21 * fontSize;
    for (const word of words) {
      items.push({
        text: word.text,
        x0: word.x0 * scaleX,
        x1: word.x1 * scaleX,
        y0: baseline - 0.75 * fontSize,
        y1: baseline + 0.21 * fontSize,
        baseline,
        fontSize,
        bold: false,
        italic: false,
        monospace: false,
        rotated: false,
        confidence: word.confidence,
      });
    }
  }
  return { pageNumber, width, height, items, images: [], rules: [], truncated: false };
}
