import { z } from 'zod';

import {
  DOCUMENT_CONTENT_TYPES,
  type DocumentKind,
  LEGACY_OFFICE_KINDS,
  PARSE_EXTENSIONS,
} from './document-kinds';

/** One file format `POST /v2/parse` accepts (`GET /v2/parse/formats`). */
export const parseFormatSchema = z.object({
  format: z.string(),
  kind: z.enum(['document', 'image']),
  extensions: z.array(z.string()),
  mimeTypes: z.array(z.string()),
  /** False for formats known but disabled on this deployment (no OCR, no LibreOffice). */
  available: z.boolean(),
});
export type ParseFormat = z.infer<typeof parseFormatSchema>;

export const parseFormatsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ formats: z.array(parseFormatSchema) }),
});
export type ParseFormatsResponse = z.infer<typeof parseFormatsResponseSchema>;

/** Raster image formats, each read by OCR as a one-page document. */
const IMAGE_FORMATS: { format: string; extensions: string[]; mimeTypes: string[] }[] = [
  { format: 'png', extensions: ['.png'], mimeTypes: ['image/png'] },
  { format: 'jpeg', extensions: ['.jpg', '.jpeg'], mimeTypes: ['image/jpeg'] },
  { format: 'tiff', extensions: ['.tif', '.tiff'], mimeTypes: ['image/tiff'] },
  { format: 'bmp', extensions: ['.bmp'], mimeTypes: ['image/bmp'] },
  { format: 'webp', extensions: ['.webp'], mimeTypes: ['image/webp'] },
  { format: 'gif', extensions: ['.gif'], mimeTypes: ['image/gif'] },
];

/** Extra MIME types uploads of a kind are recognised by, beside the one reported for it. */
const ALSO_ACCEPTED: Partial<Record<DocumentKind, string[]>> = {
  html: ['application/xhtml+xml'],
  docx: ['application/vnd.ms-word.document.macroEnabled.12'],
  xlsx: ['application/vnd.ms-excel.sheet.macroEnabled.12'],
  pptx: ['application/vnd.ms-powerpoint.presentation.macroEnabled.12'],
};

/**
 * The formats of `POST /v2/parse`, from the one table of extensions (PARSE_EXTENSIONS): documents,
 * then images. Legacy binary Office files need LibreOffice, images need OCR.
 */
export function parseFormatCatalogue(capabilities: { ocr: boolean; legacyOffice: boolean }): ParseFormat[] {
  const byKind = new Map<DocumentKind, string[]>();
  for (const [extension, kind] of Object.entries(PARSE_EXTENSIONS)) {
    if (kind === 'image') continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), extension]);
  }
  const documents: ParseFormat[] = [...byKind].map(([kind, extensions]) => ({
    format: kind,
    kind: 'document',
    extensions,
    mimeTypes: [
      DOCUMENT_CONTENT_TYPES[kind as Exclude<DocumentKind, 'image'>],
      ...(ALSO_ACCEPTED[kind] ?? []),
    ],
    available: !LEGACY_OFFICE_KINDS.includes(kind) || capabilities.legacyOffice,
  }));
  const images: ParseFormat[] = IMAGE_FORMATS.map((image) => ({
    ...image,
    kind: 'image',
    available: capabilities.ocr,
  }));
  return [...documents, ...images];
}
