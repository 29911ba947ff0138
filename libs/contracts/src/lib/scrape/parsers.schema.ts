import { z } from 'zod';
import { LIMITS } from '../common/limits';

export const pdfParserSchema = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).default('auto'),
  maxPages: z.int().min(LIMITS.pdfMaxPages.min).max(LIMITS.pdfMaxPages.max).optional(),
  pages: z.boolean().default(false),
  blocks: z.boolean().default(false),
  pageMarkers: z.boolean().default(false),
});

/** A parser entry: the object form, or the bare string `"pdf"` as shorthand for `{type:"pdf"}`. */
export const parserSchema = z.union([
  z.literal('pdf').transform(() => pdfParserSchema.parse({ type: 'pdf' })),
  pdfParserSchema,
]);

export type PdfParser = z.infer<typeof pdfParserSchema>;
