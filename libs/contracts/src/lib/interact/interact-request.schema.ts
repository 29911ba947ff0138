import { z } from 'zod';

import { LIMITS } from '../common/limits';

export const INTERACT_LIMITS = {
  /** `timeout` of a call in seconds (docs/interact.md): covers restoring the page and running the code or prompt. */
  timeoutSeconds: { min: 1, max: 300, default: 30 },
  /** Largest `code` accepted. */
  codeMaxLength: 100_000,
} as const;

export const INTERACT_LANGUAGES = ['python', 'node', 'bash'] as const;

/** Texts of the interact routes, word for word. */
export const INTERACT_MESSAGES = {
  codeOrPrompt: "Either 'code' or 'prompt' must be provided",
  notBoth: "Provide either 'code' or 'prompt', not both",
  unsupportedLanguage: (language: string) =>
    `language "${language}" is not supported on this server: only "node" (Playwright-style JavaScript, run inside the browser sandbox) is available`,
  zeroDataRetention:
    'Interact keeps the session state (URL, cookies, localStorage) to restore the page and is unavailable with zero data retention',
  scrapeNotCompleted: 'The scrape did not complete, so there is no page to interact with',
  noSession: 'No interact session was started for this scrape',
  noBrowser: 'Interact needs a browser, but none is configured on this server (CHROMIUM_PATH)',
} as const;

/**
 * Body of `POST /v2/scrape/:jobId/interact` (docs/interact.md): Playwright-style `code` or a
 * natural-language `prompt`, run on the page of an earlier scrape. Strict.
 */
export const interactRequestSchema = z
  .strictObject({
    code: z.string().max(INTERACT_LIMITS.codeMaxLength).optional(),
    prompt: z.string().max(LIMITS.promptMaxLength).optional(),
    language: z.enum(INTERACT_LANGUAGES).default('node'),
    timeout: z
      .number()
      .int()
      .min(INTERACT_LIMITS.timeoutSeconds.min)
      .max(INTERACT_LIMITS.timeoutSeconds.max)
      .optional(),
    origin: z.string().max(256).default('api'),
    integration: z.string().max(256).optional(),
  })
  .superRefine((request, ctx) => {
    const code = request.code?.trim();
    const prompt = request.prompt?.trim();
    if (!code && !prompt)
      ctx.addIssue({ code: 'custom', message: INTERACT_MESSAGES.codeOrPrompt, path: ['code'] });
    else if (code && prompt)
      ctx.addIssue({ code: 'custom', message: INTERACT_MESSAGES.notBoth, path: ['prompt'] });
    if (request.language !== 'node')
      ctx.addIssue({
        code: 'custom',
        message: INTERACT_MESSAGES.unsupportedLanguage(request.language),
        path: ['language'],
      });
  });
export type InteractRequestInput = z.input<typeof interactRequestSchema>;
export type InteractRequest = z.output<typeof interactRequestSchema>;

/** Answer of an interact call (docs/interact.md); `result` is the JSON text of the code's return value. */
export const interactResponseSchema = z.object({
  success: z.literal(true),
  output: z.string().optional(),
  stdout: z.string().optional(),
  result: z.string().optional(),
  stderr: z.string().optional(),
  exitCode: z.int().optional(),
  killed: z.boolean().optional(),
  truncated: z.boolean().optional(),
});
export type InteractResponse = z.infer<typeof interactResponseSchema>;

/** Answer of `DELETE /v2/scrape/:jobId/interact`. */
export const interactStopResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('stopped'),
  sessionDurationMs: z.number(),
  creditsBilled: z.number(),
});
export type InteractStopResponse = z.infer<typeof interactStopResponseSchema>;
