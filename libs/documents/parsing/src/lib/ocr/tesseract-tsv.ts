import type { OcrLine, OcrResult, OcrWord } from './ocr-engine';

/** Parses Tesseract's TSV output (levels: 1 page, 4 line, 5 word). */
export function parseTesseractTsv(tsv: string): OcrResult {
  const result: OcrResult = { width: 0, height: 0, words: [], lines: [] };
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] === 'level') continue;
    const [level, , block, paragraph, line, , left, top, width, height, confidence] = cells
      .slice(0, 11)
      .map(Number);
    const text = cells.slice(11).join('\t').trim();
    const key = `${block}.${paragraph}.${line}`;
    if (level === 1) {
      result.width = width;
      result.height = height;
    } else if (level === 4) {
      result.lines.push({ key, x0: left, y0: top, x1: left + width, y1: top + height });
    } else if (level === 5 && text && confidence >= 0) {
      result.words.push({
        text,
        x0: left,
        y0: top,
        x1: left + width,
        y1: top + height,
        confidence: Math.min(1, confidence / 100),
        line: key,
      } satisfies OcrWord);
    }
  }
  return result;
}

export type { OcrLine };
