export interface RenderedPage {
  png: Buffer;
  /** Bitmap size in pixels. */
  width: number;
  height: number;
  /** The resolution actually used (lowered for very large pages). */
  dpi: number;
}

/** The size of a PNG from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG image');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The resolution to rasterise a page at so that the bitmap stays under `maxPixels`. */
export function boundedDpi(
  dpi: number,
  pointSize: { width: number; height: number } | undefined,
  maxPixels: number,
): number {
  if (!pointSize || pointSize.width <= 0 || pointSize.height <= 0) return dpi;
  const pixels = (pointSize.width * dpi * pointSize.height * dpi) / (72 * 72);
  if (pixels <= maxPixels) return dpi;
  return Math.max(36, Math.floor(dpi * Math.sqrt(maxPixels / pixels)));
}
