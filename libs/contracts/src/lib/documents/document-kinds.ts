/**
 * Document types the doc-parser converts (docs/documents.md#other-formats-post-v2parse extensions, plus images for OCR). The kind is
 * decided from the file name's extension, checked against the bytes where a signature exists.
 */
export const DOCUMENT_KINDS = [
  'pdf',
  'docx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'xlsx',
  'pptx',
  'epub',
  'csv',
  'html',
  'image',
  'doc',
  'xls',
  'xlsb',
  'ppt',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Legacy binary Office formats: accepted by extension, converted only where LibreOffice is available. */
export const LEGACY_OFFICE_KINDS: readonly DocumentKind[] = ['doc', 'xls', 'xlsb', 'ppt'];

export const PARSE_EXTENSIONS: Readonly<Record<string, DocumentKind>> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.docm': 'docx',
  '.doc': 'doc',
  '.odt': 'odt',
  '.ods': 'ods',
  '.odp': 'odp',
  '.rtf': 'rtf',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.xls': 'xls',
  '.xlsb': 'xlsb',
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.ppt': 'ppt',
  '.epub': 'epub',
  '.csv': 'csv',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.tif': 'image',
  '.tiff': 'image',
  '.bmp': 'image',
  '.webp': 'image',
  '.gif': 'image',
};

/** The MIME type answered in `metadata.contentType` for each kind. */
export const DOCUMENT_CONTENT_TYPES: Readonly<Record<Exclude<DocumentKind, 'image'>, string>> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'application/rtf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  epub: 'application/epub+zip',
  csv: 'text/csv',
  html: 'text/html',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  ppt: 'application/vnd.ms-powerpoint',
};

/** The extension of a file name, lower-cased with its dot (`Report.PDF` → `.pdf`); '' when none. */
export function fileExtension(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/**
 * True when the bytes start like a PDF. Readers accept the `%PDF-` header after up to 1 KiB of junk;
 * junk that looks like markup does not count (an HTML page quoting a PDF header is not a PDF).
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1_024)).toString(
    'latin1',
  );
  const at = head.indexOf('%PDF-');
  return at >= 0 && !head.slice(0, at).includes('<');
}

/** The kind of an uploaded file from its name; a `%PDF` signature wins over a misleading extension. */
export function documentKindOf(filename: string, bytes?: Uint8Array): DocumentKind | undefined {
  if (bytes && looksLikePdf(bytes)) return 'pdf';
  return PARSE_EXTENSIONS[fileExtension(filename)];
}

/** The content type reported for a parsed document. */
export function documentContentType(kind: DocumentKind, filename: string, declared?: string): string {
  if (kind !== 'image') return DOCUMENT_CONTENT_TYPES[kind];
  const extension = fileExtension(filename).slice(1);
  if (declared?.startsWith('image/')) return declared.split(';')[0].trim();
  return `image/${extension === 'jpg' ? 'jpeg' : extension === 'tif' ? 'tiff' : extension || 'png'}`;
}
