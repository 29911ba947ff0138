import { z } from 'zod';

const selector = z.string().min(1).max(2_000);
const text = z.string().max(100_000);
const timeout = z.number().int().min(0).max(300_000).optional();
const options = <T extends z.ZodRawShape>(shape: T) => z.object(shape).partial().optional();

/**
 * Every operation user code may perform on the session's page, with the arguments each accepts.
 * The sandbox's `page` object only forwards calls; this table is the whole capability: a name not
 * in it, or arguments not of its shape, are refused before anything touches the page.
 */
export const SHIM_METHODS = {
  goto: z.tuple([
    z.string().min(1).max(8_192),
    options({ timeout, waitUntil: z.enum(['load', 'domcontentloaded', 'networkidle', 'commit']) }),
  ]),
  reload: z.tuple([]),
  goBack: z.tuple([]),
  click: z.tuple([selector, options({ timeout })]),
  fill: z.tuple([selector, text]),
  type: z.tuple([selector, text, options({ delay: z.number().int().min(0).max(1_000) })]),
  press: z.tuple([selector, z.string().min(1).max(64)]),
  hover: z.tuple([selector]),
  selectOption: z.tuple([
    selector,
    z.union([z.string().max(10_000), z.array(z.string().max(10_000)).max(100)]),
  ]),
  waitForSelector: z.tuple([
    selector,
    options({ timeout, state: z.enum(['attached', 'detached', 'visible', 'hidden']) }),
  ]),
  evaluate: z.tuple([
    z.enum(['function', 'expression']),
    z.string().min(1).max(100_000),
    z.array(z.unknown()).max(32),
  ]),
  content: z.tuple([]),
  title: z.tuple([]),
  url: z.tuple([]),
  textContent: z.tuple([selector]),
  innerText: z.tuple([selector]),
  innerHTML: z.tuple([selector]),
  getAttribute: z.tuple([selector, z.string().min(1).max(256)]),
  inputValue: z.tuple([selector]),
  isVisible: z.tuple([selector]),
  count: z.tuple([selector]),
  screenshot: z.tuple([
    options({
      fullPage: z.boolean(),
      quality: z.number().int().min(1).max(100),
      type: z.enum(['png', 'jpeg']),
    }),
  ]),
  'keyboard.press': z.tuple([z.string().min(1).max(64)]),
  'keyboard.type': z.tuple([text]),
} as const;

export type ShimMethod = keyof typeof SHIM_METHODS;
export type ShimArgs<M extends ShimMethod> = z.output<(typeof SHIM_METHODS)[M]>;

/** The session page as the sandbox may use it: one implementation per whitelisted operation. */
export type ShimTarget = { [M in ShimMethod]: (...args: ShimArgs<M>) => Promise<unknown> };

/** A refused or failed page operation; its message is what the user code's promise rejects with. */
export class ShimError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShimError';
  }
}

export function isShimMethod(name: unknown): name is ShimMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SHIM_METHODS, name);
}

/**
 * Performs one call from the sandbox: checks the name against the whitelist and the arguments
 * against its shape (JSON only: they crossed the binding as text), then runs it on `target`.
 * Returns the result as JSON text (undefined stays undefined).
 */
export async function dispatchShimCall(
  target: ShimTarget,
  method: unknown,
  argsJson: unknown,
): Promise<string | undefined> {
  if (!isShimMethod(method))
    throw new ShimError(`page.${String(method).slice(0, 64)} is not available in the interact sandbox`);
  let raw: unknown;
  try {
    raw = typeof argsJson === 'string' ? JSON.parse(argsJson) : undefined;
  } catch {
    raw = undefined;
  }
  if (!Array.isArray(raw)) throw new ShimError(`page.${method}: arguments must be a JSON array`);
  // Trailing undefined/null options are dropped by JSON; the tuples accept them as missing.
  while (raw.length > 0 && (raw[raw.length - 1] === null || raw[raw.length - 1] === undefined)) raw.pop();
  const parsed = (SHIM_METHODS[method] as z.ZodType).safeParse(fillOptional(method, raw));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ShimError(
      `page.${method}: invalid arguments (${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  const run = target[method] as (...args: unknown[]) => Promise<unknown>;
  const value = await run.apply(target, parsed.data as unknown[]);
  return value === undefined ? undefined : JSON.stringify(value);
}

/** Pads optional trailing tuple members so `page.click(sel)` and `page.click(sel, {})` both validate. */
function fillOptional(method: ShimMethod, args: unknown[]): unknown[] {
  const schema = SHIM_METHODS[method] as unknown as z.ZodTuple;
  const items = schema.def.items as z.ZodType[];
  const padded = [...args];
  while (padded.length < items.length && items[padded.length].safeParse(undefined).success)
    padded.push(undefined);
  return padded;
}
