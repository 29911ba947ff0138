import { z } from 'zod';

import { LIMITS } from '../common/limits';

const viewportSchema = z.strictObject({
  width: z.int().min(1).max(LIMITS.screenshotViewport.maxWidth),
  height: z.int().min(1).max(LIMITS.screenshotViewport.maxHeight),
});

export const waitActionSchema = z.union([
  z.strictObject({ type: z.literal('wait'), milliseconds: z.int().min(1) }),
  z.strictObject({ type: z.literal('wait'), selector: z.string().min(1) }),
]);

export const screenshotActionSchema = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.int().min(LIMITS.quality.min).max(LIMITS.quality.max).optional(),
  viewport: viewportSchema.optional(),
});

export const clickActionSchema = z.strictObject({
  type: z.literal('click'),
  selector: z.string().min(1),
  all: z.boolean().default(false),
});

/**
 * Types `text` into the focused element; with `selector` (sent by the reference MCP server, accepted
 * by the reference service) that element is focused first.
 */
export const writeActionSchema = z.strictObject({
  type: z.literal('write'),
  text: z.string(),
  selector: z.string().min(1).optional(),
});
export const pressActionSchema = z.strictObject({ type: z.literal('press'), key: z.string().min(1) });

export const scrollActionSchema = z.strictObject({
  type: z.literal('scroll'),
  direction: z.enum(['up', 'down']).default('down'),
  selector: z.string().min(1).optional(),
});

export const scrapeActionSchema = z.strictObject({ type: z.literal('scrape') });

export const executeJavascriptActionSchema = z.strictObject({
  type: z.literal('executeJavascript'),
  script: z.string().min(1),
});

export const PDF_PAGE_FORMATS = [
  'A0',
  'A1',
  'A2',
  'A3',
  'A4',
  'A5',
  'A6',
  'Letter',
  'Legal',
  'Tabloid',
  'Ledger',
] as const;

export const pdfActionSchema = z.strictObject({
  type: z.literal('pdf'),
  format: z.enum(PDF_PAGE_FORMATS).default('Letter'),
  landscape: z.boolean().default(false),
  scale: z.number().min(0.1).max(2).default(1),
});

export const actionSchema = z.union([
  waitActionSchema,
  screenshotActionSchema,
  clickActionSchema,
  writeActionSchema,
  pressActionSchema,
  scrollActionSchema,
  scrapeActionSchema,
  executeJavascriptActionSchema,
  pdfActionSchema,
]);

export type Action = z.infer<typeof actionSchema>;
export type ScreenshotAction = z.infer<typeof screenshotActionSchema>;
export type PdfAction = z.infer<typeof pdfActionSchema>;

/** Total waiting an action list asks for (a selector wait counts one second, docs/scraping.md#actions). */
export function actionsWaitMs(actions: readonly Action[]): number {
  let total = 0;
  for (const action of actions) {
    if (action.type !== 'wait') continue;
    total += 'milliseconds' in action ? action.milliseconds : LIMITS.selectorWaitCountsMs;
  }
  return total;
}
