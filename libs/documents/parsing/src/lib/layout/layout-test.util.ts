import type { TextItem } from '../model/page-content.types';

/** A native text item at (x, baseline) for layout unit tests (Helvetica-like metrics). */
export function item(
  text: string,
  x: number,
  baseline: number,
  size = 11,
  options: Partial<TextItem> = {},
): TextItem {
  const width = text.length * size * 0.5;
  return {
    text,
    x0: x,
    x1: x + width,
    y0: baseline - 0.8 * size,
    y1: baseline + 0.2 * size,
    baseline,
    fontSize: size,
    bold: false,
    italic: false,
    monospace: false,
    rotated: false,
    ...options,
  };
}
