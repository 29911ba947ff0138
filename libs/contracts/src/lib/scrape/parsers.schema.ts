import { z } from 'zod';

import { LIMITS } from '../common/limits';

/**
 * The `pdf` parser (docs/documents.md#pdf-parsing): an object with no additional properties. The bare string `"pdf"`
 * is its shorthand with every option at its default: the reference service and its SDKs send it
 * (e.g. the JS SDK's "scrape with all options"), so it is accepted (docs/compatibility.md).
 */
export const pdfParserSchema = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).default('auto'),
  maxPages: z.int().min(LIMITS.pdfMaxPages.min).max(LIMITS.pdfMaxPages.max).optional(),
  pages: z.boolean().default(false),
  blocks: z.boolean().default(false),
  pageMarkers: z.boolean().default(false),
});

/** The `image` parser: a scraped raster image is OCR'd as a one-page document (no options). */
export const imageParserSchema = z.strictObject({ type: z.literal('image') });

export const PARSER_TYPES = ['pdf', 'image'] as const;
export type ParserType = (typeof PARSER_TYPES)[number];

/** A parser entry: an object, or the name of a parser as shorthand for it with its defaults. */
export const parserSchema = z.union([
  z.literal('pdf').transform(() => pdfParserSchema.parse({ type: 'pdf' })),
  z.literal('image').transform(() => ({ type: 'image' as const })),
  pdfParserSchema,
  imageParserSchema,
]);

export type Parser = z.output<typeof parserSchema>;
export type PdfParser = z.infer<typeof pdfParserSchema>;

/**
 * Whether scraped raster images are OCR'd: absent `parsers` means the default list (`pdf` and
 * `image`), otherwise only when the list names the `image` parser.
 */
export function wantsImageParsing(parsers: readonly Parser[] | undefined): boolean {
  return parsers === undefined || parsers.some((parser) => parser.type === 'image');
}
