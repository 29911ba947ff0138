import { z } from 'zod';

import { LIMITS } from '../common/limits';

/** Formats that may be named by a bare string; each has an equivalent `{type}` object. */
export const SIMPLE_FORMATS = [
  'markdown',
  'html',
  'rawHtml',
  'rawBase64',
  'links',
  'images',
  'summary',
  'screenshot',
  'changeTracking',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
] as const;

/** Formats that need options and therefore only exist in object form. */
export const OBJECT_ONLY_FORMATS = [
  'json',
  'deterministicJson',
  'attributes',
  'question',
  'highlights',
  'query',
] as const;

export const FORMAT_TYPES = [...SIMPLE_FORMATS, ...OBJECT_ONLY_FORMATS] as const;
export type FormatType = (typeof FORMAT_TYPES)[number];

/** Formats answered by a language model (or its offline fallback). */
export const LLM_FORMATS: readonly FormatType[] = [
  'summary',
  'json',
  'deterministicJson',
  'question',
  'highlights',
  'query',
];

const jsonSchemaObject = z.record(z.string(), z.unknown());

const viewportSchema = z.strictObject({
  width: z.int().min(1).max(LIMITS.screenshotViewport.maxWidth),
  height: z.int().min(1).max(LIMITS.screenshotViewport.maxHeight),
});

const jsonOptions = {
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(LIMITS.promptMaxLength).optional(),
  checkPromptInjection: z.boolean().optional(),
};

const simple = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const screenshotFormatSchema = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.int().min(LIMITS.quality.min).max(LIMITS.quality.max).optional(),
  viewport: viewportSchema.optional(),
});

export const changeTrackingFormatSchema = z.strictObject({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(['json', 'git-diff'])).default([]),
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(LIMITS.promptMaxLength).optional(),
  tag: z.string().max(256).nullable().default(null),
});

/** An object schema that names no properties yet allows any: structured-output models cannot use it. */
export function isOpenObjectWithoutProperties(schema: Record<string, unknown> | undefined): boolean {
  return (
    !!schema &&
    schema['type'] === 'object' &&
    !schema['properties'] &&
    schema['additionalProperties'] === true
  );
}
export const OPEN_SCHEMA_MESSAGE =
  'The json schema must define properties when it is an object that allows additional properties';

/** A json format says what to extract: with neither a schema nor a prompt there is nothing to ask for. */
const hasSchemaOrPrompt = (format: { schema?: unknown; prompt?: string }) =>
  format.schema !== undefined || (format.prompt ?? '').trim() !== '';
const needsSchemaOrPrompt = (type: string) => `The ${type} format needs a schema or a prompt`;

export const jsonFormatSchema = z
  .strictObject({ type: z.literal('json'), ...jsonOptions })
  .refine((format) => !isOpenObjectWithoutProperties(format.schema), {
    error: OPEN_SCHEMA_MESSAGE,
    path: ['schema'],
  })
  .refine(hasSchemaOrPrompt, { error: needsSchemaOrPrompt('json') });
export const deterministicJsonFormatSchema = z
  .strictObject({ type: z.literal('deterministicJson'), ...jsonOptions })
  .refine((format) => !isOpenObjectWithoutProperties(format.schema), {
    error: OPEN_SCHEMA_MESSAGE,
    path: ['schema'],
  })
  .refine(hasSchemaOrPrompt, { error: needsSchemaOrPrompt('deterministicJson') });

export const attributesFormatSchema = z.strictObject({
  type: z.literal('attributes'),
  selectors: z
    .array(z.strictObject({ selector: z.string().min(1), attribute: z.string().min(1) }))
    .min(1)
    .max(100),
});

export const questionFormatSchema = z.strictObject({
  type: z.literal('question'),
  question: z.string().min(1).max(LIMITS.promptMaxLength),
});

export const highlightsFormatSchema = z.strictObject({
  type: z.literal('highlights'),
  query: z.string().min(1).max(LIMITS.promptMaxLength),
});

export const queryFormatSchema = z.strictObject({
  type: z.literal('query'),
  prompt: z.string().min(1).max(LIMITS.promptMaxLength),
  mode: z.enum(['freeform', 'directQuote']).default('freeform'),
});

export const formatObjectSchema = z.discriminatedUnion('type', [
  simple('markdown'),
  simple('html'),
  simple('rawHtml'),
  simple('rawBase64'),
  simple('links'),
  simple('images'),
  simple('summary'),
  screenshotFormatSchema,
  changeTrackingFormatSchema,
  simple('branding'),
  simple('product'),
  simple('menu'),
  simple('audio'),
  simple('video'),
  jsonFormatSchema,
  deterministicJsonFormatSchema,
  attributesFormatSchema,
  questionFormatSchema,
  highlightsFormatSchema,
  queryFormatSchema,
]);

export type FormatObject = z.infer<typeof formatObjectSchema>;
export type FormatOf<T extends FormatType> = Extract<FormatObject, { type: T }>;

/** A format entry in string or object form, normalised to the object form. */
export const formatEntrySchema = z.union([
  z.enum(SIMPLE_FORMATS).transform((type) => formatObjectSchema.parse({ type })),
  formatObjectSchema,
  z.enum(OBJECT_ONLY_FORMATS).transform((type, ctx) => {
    ctx.addIssue({
      code: 'custom',
      message: `The ${type} format needs options: send it as an object, e.g. {"type":"${type}", ...}`,
    });
    return z.NEVER;
  }),
]);

export function findFormat<T extends FormatType>(
  formats: readonly FormatObject[],
  type: T,
): FormatOf<T> | undefined {
  return formats.find((format): format is FormatOf<T> => format.type === type);
}

export function hasFormat(formats: readonly FormatObject[], type: FormatType): boolean {
  return formats.some((format) => format.type === type);
}
