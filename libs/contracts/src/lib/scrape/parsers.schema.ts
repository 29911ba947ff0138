import { z } from 'zod';
import { LIMITS } from '../common/limits';

/**
 * A parser entry (spec §2.1.2: "Each item is an object with no additional properties allowed").
 * The bare string `"pdf"` some clients send is refused with 400 like any other non-object item
 * (compat §21 #7: the product spec replaces the reference's string shorthand).
 */
export const pdfParserSchema = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).default('auto'),
  maxPages: z.int().min(LIMITS.pdfMaxPages.min).max(LIMITS.pdfMaxPages.max).optional(),
  pages: z.boolean().default(false),
  blocks: z.boolean().default(false),
  pageMarkers: z.boolean().default(false),
});

export const parserSchema = pdfParserSchema;

export type PdfParser = z.infer<typeof pdfParserSchema>;
