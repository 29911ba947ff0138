import type { PageContent, TextItem } from '../model/page-content.types';

// Replacement characters, C0/C1 controls and private-use code points: what unmapped glyphs decode to.
// eslint-disable-next-line no-control-regex
const GARBAGE = /[\uFFFD\u0000-\u0008\u000E-\u001F\u0080-\u009F\uE000-\uF8FF\u{F0000}-\u{10FFFF}]/gu;
const READABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

export interface TextQuality {
  /** Non-space characters. */
  chars: number;
  /** Share of characters that are not readable text (0–1). */
  garbageRatio: number;
}

export function assessText(items: readonly TextItem[]): TextQuality {
  let chars = 0;
  let garbage = 0;
  for (const item of items) {
    const text = item.text.replace(/\s+/g, '');
    chars += [...text].length;
    garbage += (text.match(GARBAGE) ?? []).length + (text.match(/\(cid:\d+\)/g) ?? []).join('').length;
    for (const char of text.replace(GARBAGE, '')) if (!READABLE.test(char)) garbage += 1;
  }
  return { chars, garbageRatio: chars === 0 ? 0 : Math.min(1, garbage / chars) };
}

/** Share of the page covered by images (overlaps counted once per image, capped at 1). */
export function imageCoverage(content: PageContent): number {
  const area = content.width * content.height;
  if (area <= 0) return 0;
  const covered = content.images.reduce(
    (sum, image) => sum + Math.max(0, image.x1 - image.x0) * Math.max(0, image.y1 - image.y0),
    0,
  );
  return Math.min(1, covered / area);
}

/** Why a page's text layer is not usable (auto mode then OCRs it); undefined when it is. */
export function ocrReason(content: PageContent): 'no_text' | 'garbage_text' | 'scanned' | undefined {
  const quality = assessText(content.items);
  if (quality.chars === 0) return 'no_text';
  if (quality.garbageRatio > 0.25) return 'garbage_text';
  if (quality.chars < 40 && imageCoverage(content) > 0.4) return 'scanned';
  return undefined;
}
