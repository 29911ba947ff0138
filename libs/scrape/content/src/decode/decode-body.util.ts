import { decode as iconvDecode, encodingExists } from 'iconv-lite';

export interface DecodedBody {
  text: string;
  /** Canonical lower-case name of the charset used. */
  charset: string;
}

const SNIFF_BYTES = 4096;

// WHATWG encoding labels whose browser meaning differs from the literal name iconv-lite would use.
const LABEL_ALIASES: Readonly<Record<string, string>> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'ansi_x3.4-1968': 'windows-1252',
  'iso-8859-9': 'windows-1254',
  'iso-8859-11': 'windows-874',
  'tis-620': 'windows-874',
  gb2312: 'gbk',
  gb_2312: 'gbk',
  'gb_2312-80': 'gbk',
  'x-gbk': 'gbk',
  'x-sjis': 'shift_jis',
  sjis: 'shift_jis',
  ms_kanji: 'shift_jis',
  'windows-31j': 'shift_jis',
  'x-euc-jp': 'euc-jp',
  'ks_c_5601-1987': 'euc-kr',
  'iso-8859-8-i': 'iso-8859-8',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  'x-unicode20utf8': 'utf-8',
  unicode: 'utf-16le',
  'utf-16': 'utf-16le',
};

/** Canonical charset for a label, or undefined when the label is unknown. */
export function normalizeCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const cleaned = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (!cleaned) return undefined;
  const name = LABEL_ALIASES[cleaned] ?? cleaned;
  return name === 'utf-8' || encodingExists(name) ? name : undefined;
}

function bomCharset(bytes: Uint8Array): { charset: string; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  return undefined;
}

function headerCharset(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/charset\s*=\s*("?)([^";,\s]+)\1/i);
  return normalizeCharset(match?.[2]);
}

/** `<meta charset>`, `<meta http-equiv="Content-Type" content="…charset=…">` or an XML declaration. */
export function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFF_BYTES)).toString(
    'latin1',
  );
  const xml = head.match(/^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i);
  if (xml) return normalizeCharset(xml[1]);
  const metaTag = /<meta\b[^>]*>/gi;
  for (let m = metaTag.exec(head); m; m = metaTag.exec(head)) {
    const tag = m[0];
    const direct = tag.match(/\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i);
    if (direct && !/\bcontent\s*=/i.test(tag.slice(0, direct.index))) {
      const found = normalizeCharset(direct[1]);
      if (found) return found;
    }
    if (/http-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const content = tag.match(/\bcontent\s*=\s*(["'])([^"']*)\1/i)?.[2] ?? '';
      const found = headerCharset(content);
      if (found) return found;
    }
  }
  return undefined;
}

function decodeAs(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  return iconvDecode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
}

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Bytes of an HTTP body to text, as a browser would pick the charset: byte-order mark, then the
 * Content-Type header, then a `<meta>` declaration in the first 4 KB, then UTF-8 (windows-1252 when
 * undeclared bytes are not valid UTF-8). The meta declaration is ignored when it claims UTF-16, which
 * an ASCII-compatible sniff cannot have read.
 */
export function decodeBody(bytes: Uint8Array, contentTypeHeader?: string): DecodedBody {
  const bom = bomCharset(bytes);
  if (bom) return { text: decodeAs(bytes.subarray(bom.skip), bom.charset), charset: bom.charset };
  const fromHeader = headerCharset(contentTypeHeader);
  let charset = fromHeader ?? sniffMetaCharset(bytes);
  if (charset?.startsWith('utf-16') && !fromHeader) charset = 'utf-8';
  if (charset) return { text: decodeAs(bytes, charset), charset };
  const utf8 = strictUtf8(bytes);
  if (utf8 !== undefined) return { text: utf8, charset: 'utf-8' };
  return { text: decodeAs(bytes, 'windows-1252'), charset: 'windows-1252' };
}
