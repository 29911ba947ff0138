import { ocrToContent } from './ocr-content';
import { parseTesseractTsv } from './tesseract-tsv';

const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0\t0\t1700\t2200\t-1\t',
  '4\t1\t1\t1\t1\t0\t140\t137\t696\t58\t-1\t',
  '5\t1\t1\t1\t1\t1\t140\t137\t201\t46\t96.89\tAnnual',
  '5\t1\t1\t1\t1\t2\t364\t137\t255\t58\t95.48\tScraping',
  '4\t1\t2\t1\t1\t0\t141\t277\t1383\t29\t-1\t',
  '5\t1\t2\t1\t1\t1\t141\t277\t48\t23\t96.95\tLeft',
  '5\t1\t2\t1\t1\t2\t199\t277\t96\t23\t-1\t ',
  '5\t1\t2\t1\t1\t3\t307\t277\t134\t29\t90.5\tpage',
].join('\n');

describe('OCR output', () => {
  it('reads words, lines and the image size from Tesseract TSV', () => {
    const result = parseTesseractTsv(TSV);
    expect(result).toMatchObject({ width: 1700, height: 2200 });
    expect(result.words.map((word) => word.text)).toEqual(['Annual', 'Scraping', 'Left', 'page']);
    expect(result.words[0]).toEqual({
      text: 'Annual',
      x0: 140,
      y0: 137,
      x1: 341,
      y1: 183,
      confidence: 0.9689,
      line: '1.1.1',
    });
    expect(result.lines).toHaveLength(2);
  });

  it('turns words into page content in points with a font size per line', () => {
    const content = ocrToContent(parseTesseractTsv(TSV), 4, { width: 612, height: 792 });
    expect(content).toMatchObject({ pageNumber: 4, width: 612, height: 792 });
    const scale = 612 / 1700;
    expect(content.items[0].x0).toBeCloseTo(140 * scale);
    const title = content.items.filter((item) => item.text === 'Annual' || item.text === 'Scraping');
    const body = content.items.filter((item) => item.text === 'Left' || item.text === 'page');
    expect(new Set(title.map((item) => item.fontSize)).size).toBe(1);
    // 22 pt title and 11 pt body in the source page: the estimates keep the ratio.
    expect(title[0].fontSize / body[0].fontSize).toBeGreaterThan(1.6);
    expect(body[0].fontSize).toBeGreaterThan(9);
    expect(body[0].fontSize).toBeLessThan(13);
    expect(content.items.every((item) => item.confidence !== undefined && !item.bold)).toBe(true);
  });
});
