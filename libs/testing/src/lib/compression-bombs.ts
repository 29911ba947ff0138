import { constants, crc32, createBrotliCompress, deflateRawSync } from 'node:zlib';

/**
 * Compression bombs for hostile-input tests: small encoded bodies that decode to `decodedBytes` of
 * HTML-looking text, built without holding the decoded bytes in memory. Deflate-based bombs repeat
 * one independently compressed 1 MiB segment (a full flush resets the dictionary, so copies of it
 * concatenate into a valid stream, about 1,000:1); brotli is compressed for real (slower, memoised);
 * zstd is a hand-made frame of RLE blocks.
 */

const SEGMENT = 1024 * 1024;
/** What the decoded text is made of: one line of a page, repeated to 1 MiB. */
const LINE = '<p>All work and no play makes a bomb out of a page.</p>\n';

/** Whole copies of `fill` filling at most 1 MiB (whole copies: XML stays well-formed across segments). */
function segment(fill: string = LINE): Buffer {
  const text = Buffer.from(fill, 'utf8');
  return Buffer.concat(Array.from({ length: Math.max(1, Math.floor(SEGMENT / text.length)) }, () => text));
}

export interface DeflateBody {
  /** Raw deflate data (RFC 1951), final block included. */
  raw: Buffer;
  /** Bytes it decodes to. */
  size: number;
  /** CRC-32 of the decoded bytes (gzip trailers, ZIP entries). */
  crc: number;
  /** Adler-32 of the decoded bytes (zlib trailers). */
  adler: number;
}

/**
 * Raw deflate of `prefix`, then `segments` copies of a segment of about 1 MiB (whole copies of
 * `fill`), then `suffix` — without ever materialising the decoded bytes.
 */
export function deflateRepeated(options: {
  prefix?: string;
  segments: number;
  fill?: string;
  suffix?: string;
}): DeflateBody {
  const prefix = Buffer.from(options.prefix ?? '', 'utf8');
  const unit = segment(options.fill);
  const suffix = Buffer.from(options.suffix ?? '', 'utf8');
  // Checksums first: zlib's sync calls may detach an empty input buffer, and crc32 then reads 0.
  let crc = crc32(prefix);
  let adler = adler32(prefix);
  const unitAdler = adler32(unit);
  for (let index = 0; index < options.segments; index += 1) {
    crc = crc32(unit, crc);
    adler = adler32Combine(adler, unitAdler, unit.length);
  }
  crc = crc32(suffix, crc);
  adler = adler32Combine(adler, adler32(suffix), suffix.length);
  const flush = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const compressedUnit = deflateRawSync(unit, flush);
  const parts: Buffer[] = prefix.length ? [deflateRawSync(prefix, flush)] : [];
  for (let index = 0; index < options.segments; index += 1) parts.push(compressedUnit);
  parts.push(deflateRawSync(suffix, { level: 9 })); // ends with the final block
  return {
    raw: Buffer.concat(parts),
    size: prefix.length + options.segments * unit.length + suffix.length,
    crc,
    adler,
  };
}

/** A raw deflate body in the gzip format (RFC 1952): header, data, CRC-32 and size trailer. */
export function gzipWrap(body: DeflateBody): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(body.crc >>> 0, 0);
  trailer.writeUInt32LE(body.size % 2 ** 32, 4);
  return Buffer.concat([header, body.raw, trailer]);
}

/** `Content-Encoding: gzip` (or a `.gz` file) decoding to about `decodedBytes` of `fill` (HTML lines by default). */
export function gzipBomb(
  decodedBytes: number,
  parts: { prefix?: string; fill?: string; suffix?: string } = {},
): Buffer {
  return gzipWrap(deflateRepeated({ ...parts, segments: Math.ceil(decodedBytes / SEGMENT) }));
}

/** A gzipped XML sitemap of about `decodedBytes`, listing one URL under `origin` over and over. */
export function sitemapGzipBomb(decodedBytes: number, origin: string): Buffer {
  return gzipBomb(decodedBytes, {
    prefix:
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    fill: `<url><loc>${origin}/p</loc></url>\n`,
    suffix: '</urlset>\n',
  });
}

/** `Content-Encoding: deflate` (the zlib format, RFC 1950) decoding to about `decodedBytes`. */
export function zlibBomb(decodedBytes: number): Buffer {
  const body = deflateRepeated({ segments: Math.ceil(decodedBytes / SEGMENT) });
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(body.adler >>> 0, 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), body.raw, trailer]);
}

const brotliBombs = new Map<number, Promise<Buffer>>();

/** `Content-Encoding: br` decoding to about `decodedBytes` (compressed once per size, about 2 s per GiB). */
export function brotliBomb(decodedBytes: number): Promise<Buffer> {
  let pending = brotliBombs.get(decodedBytes);
  if (!pending) {
    pending = new Promise<Buffer>((resolve, reject) => {
      const encoder = createBrotliCompress({
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 },
      });
      const out: Buffer[] = [];
      encoder.on('data', (chunk: Buffer) => out.push(chunk));
      encoder.on('end', () => resolve(Buffer.concat(out)));
      encoder.on('error', reject);
      const unit = segment();
      let left = Math.ceil(decodedBytes / SEGMENT);
      const write = () => {
        while (left > 0) {
          left -= 1;
          if (!encoder.write(unit)) return void encoder.once('drain', write);
        }
        encoder.end();
      };
      write();
    });
    brotliBombs.set(decodedBytes, pending);
  }
  return pending;
}

/**
 * `Content-Encoding: zstd` (RFC 8878) decoding to about `decodedBytes` of one repeated byte: a frame
 * of 128 KiB RLE blocks, 4 bytes each (Node 20 cannot decode zstd; the point is that nothing may
 * decode it unbounded).
 */
export function zstdBomb(decodedBytes: number, byte = 0x41): Buffer {
  const blockSize = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(decodedBytes / blockSize));
  // magic, frame header descriptor (no content size, no checksum), window descriptor (2^17)
  const out = Buffer.alloc(6 + blocks * 4);
  out.writeUInt32LE(0xfd2fb528, 0);
  out[4] = 0x00;
  out[5] = 7 << 3;
  for (let index = 0; index < blocks; index += 1) {
    const last = index === blocks - 1 ? 1 : 0;
    const header = last | (1 << 1) | (blockSize << 3); // RLE block of blockSize bytes
    const at = 6 + index * 4;
    out.writeUIntLE(header, at, 3);
    out[at + 3] = byte;
  }
  return out;
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (let index = 0; index < data.length;) {
    const end = Math.min(data.length, index + 5_552);
    for (; index < end; index += 1) {
      a += data[index];
      b += a;
    }
    a %= 65_521;
    b %= 65_521;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib's adler32_combine: the Adler-32 of A followed by B from those of A and B and B's length. */
function adler32Combine(adlerA: number, adlerB: number, lengthB: number): number {
  const BASE = 65_521;
  const rem = lengthB % BASE;
  let sum1 = adlerA & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (adlerB & 0xffff) + BASE - 1;
  sum2 += ((adlerA >>> 16) & 0xffff) + ((adlerB >>> 16) & 0xffff) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= BASE << 1) sum2 -= BASE << 1;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}
