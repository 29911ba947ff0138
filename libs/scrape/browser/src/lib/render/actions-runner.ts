import type { CDPSession, KeyInput, Page, Viewport } from 'puppeteer-core';

import { type Action, type ActionResults, AppError } from '@quarry/contracts';

import type { PageGlobals } from './in-page.types';
import { settle, sleep } from './settle';

export type ArtifactKind = 'screenshot' | 'pdf';

export interface ActionContext {
  page: Page;
  cdp: CDPSession;
  signal: AbortSignal;
  deadline: number;
  viewport: Viewport;
  /** Stores a screenshot or PDF and returns the URL handed to the caller. */
  store(kind: ArtifactKind, data: Buffer, contentType: string, extension: string): Promise<string>;
}

export interface ScreenshotOptions {
  fullPage: boolean;
  quality?: number;
  viewport?: { width: number; height: number };
}

/** Short settle after interactions, so what they triggered (requests, rendering) lands first. */
const AFTER_INTERACTION_MS = 1_000;
/** Longest wait of a `wait` action for its selector, and of a `click` for its element to appear. */
const SELECTOR_WAIT_MAX_MS = 15_000;
const CLICK_WAIT_MAX_MS = 5_000;

export class ActionAbortedError extends Error {
  constructor() {
    super('the job ran out of time during actions');
    this.name = 'AbortError';
  }
}

/**
 * Performs the request's actions in order (docs/scraping.md#actions) and collects their results in action
 * order: screenshots and PDFs as stored URLs, page snapshots, JavaScript return values.
 */
export async function runActions(actions: readonly Action[], context: ActionContext): Promise<ActionResults> {
  const results: ActionResults = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    if (context.signal.aborted || Date.now() >= context.deadline) throw new ActionAbortedError();
    try {
      await runAction(action, context, results);
    } catch (error) {
      if (context.signal.aborted || error instanceof ActionAbortedError) throw new ActionAbortedError();
      if (error instanceof AppError) throw error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new AppError('SCRAPE_ACTION_ERROR', {
        message: `Action ${index + 1} (${action.type}) failed: ${reason}`,
        details: { index, type: action.type },
      });
    }
  }
  return results;
}

async function runAction(action: Action, context: ActionContext, results: ActionResults): Promise<void> {
  const { page } = context;
  const remaining = () => Math.max(0, context.deadline - Date.now());
  switch (action.type) {
    case 'wait':
      if ('milliseconds' in action) await sleep(Math.min(action.milliseconds, remaining()), context.signal);
      else
        await page.waitForSelector(action.selector, { timeout: Math.min(SELECTOR_WAIT_MAX_MS, remaining()) });
      return;
    case 'screenshot': {
      const image = await takeScreenshot(page, action, context.viewport);
      results.screenshots.push(
        await context.store('screenshot', image.data, image.contentType, image.extension),
      );
      return;
    }
    case 'click':
      await click(page, action.selector, action.all, remaining());
      await settle(page, Math.min(AFTER_INTERACTION_MS, remaining()));
      return;
    case 'write':
      if (action.selector) await focus(page, action.selector, remaining());
      await page.keyboard.type(action.text);
      return;
    case 'press':
      await page.keyboard.press(action.key as KeyInput);
      await settle(page, Math.min(AFTER_INTERACTION_MS, remaining()));
      return;
    case 'scroll':
      await page.evaluate(scrollPage, action.direction, action.selector ?? null);
      await settle(page, Math.min(AFTER_INTERACTION_MS, remaining()));
      return;
    case 'scrape':
      results.scrapes.push({ url: page.url(), html: await page.content() });
      return;
    case 'executeJavascript':
      results.javascriptReturns.push(await executeJavascript(context.cdp, action.script));
      return;
    case 'pdf': {
      const pdf = await page.pdf({
        format: action.format,
        landscape: action.landscape,
        scale: action.scale,
        printBackground: true,
        timeout: remaining(),
      });
      results.pdfs.push(await context.store('pdf', Buffer.from(pdf), 'application/pdf', '.pdf'));
      return;
    }
  }
}

/** Focuses the first element matching `selector` (a `write` with a selector types into it). */
async function focus(page: Page, selector: string, remainingMs: number): Promise<void> {
  const handle = await page.waitForSelector(selector, { timeout: Math.min(CLICK_WAIT_MAX_MS, remainingMs) });
  if (!handle) throw new Error(`no element matches ${selector}`);
  await handle.focus();
  await handle.dispose();
}

async function click(page: Page, selector: string, all: boolean, remainingMs: number): Promise<void> {
  if (all) {
    for (const handle of await page.$$(selector)) {
      await handle
        .click()
        .catch(() => handle.evaluate((element) => (element as unknown as { click(): void }).click()));
      await handle.dispose();
    }
    return;
  }
  const handle = await page.waitForSelector(selector, { timeout: Math.min(CLICK_WAIT_MAX_MS, remainingMs) });
  if (!handle) throw new Error(`no element matches ${selector}`);
  // A real mouse click where possible (it focuses the element for `write`), a DOM click otherwise.
  await handle
    .click()
    .catch(() =>
      handle.evaluate((element) => (element as unknown as { click(): void; focus(): void }).click()),
    );
  await handle.dispose();
}

/** In the page: scrolls the window (or the selected element) by one screen. */
function scrollPage(direction: 'up' | 'down', selector: string | null): void {
  const { document, innerHeight, scrollBy } = globalThis as unknown as PageGlobals;
  const sign = direction === 'up' ? -1 : 1;
  if (selector) {
    const element = document.querySelector(selector);
    if (!element) throw new Error(`no element matches ${selector}`);
    element.scrollBy(0, sign * Math.max(element.clientHeight, 100));
    return;
  }
  scrollBy(0, sign * innerHeight);
}

export async function takeScreenshot(
  page: Page,
  options: ScreenshotOptions,
  viewport: Viewport,
): Promise<{ data: Buffer; contentType: string; extension: string }> {
  if (options.viewport)
    await page.setViewport({ ...viewport, width: options.viewport.width, height: options.viewport.height });
  try {
    const jpeg = options.quality !== undefined;
    const data = await page.screenshot({
      type: jpeg ? 'jpeg' : 'png',
      ...(jpeg ? { quality: options.quality } : {}),
      fullPage: options.fullPage,
      captureBeyondViewport: options.fullPage,
    });
    return {
      data: Buffer.from(data),
      contentType: jpeg ? 'image/jpeg' : 'image/png',
      extension: jpeg ? '.jpg' : '.png',
    };
  } finally {
    if (options.viewport) await page.setViewport(viewport);
  }
}

interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  description?: string;
  unserializableValue?: string;
}

interface EvaluateResult {
  result: RemoteObject;
  exceptionDetails?: { text: string; exception?: RemoteObject };
}

/**
 * Runs a script in the page's main world (as DevTools would: not subject to the page's CSP) and
 * returns its completion value with its type. A script that uses `return` runs as a function body.
 */
export async function executeJavascript(
  cdp: CDPSession,
  script: string,
): Promise<{ type: string; value: unknown }> {
  const evaluate = (expression: string, replMode: boolean) =>
    cdp.send('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
      replMode,
    }) as Promise<EvaluateResult>;
  // REPL mode: the completion value of the script, top-level await allowed.
  let outcome = await evaluate(script, true);
  if (outcome.exceptionDetails && /Illegal return statement/.test(describeException(outcome))) {
    outcome = await evaluate(`(async () => {\n${script}\n})()`, false);
  }
  if (outcome.exceptionDetails) throw new Error(`the script threw: ${describeException(outcome)}`);
  return typedValue(outcome.result);
}

function describeException(outcome: EvaluateResult): string {
  return (
    outcome.exceptionDetails?.exception?.description?.split('\n')[0] ??
    outcome.exceptionDetails?.text ??
    'error'
  );
}

function typedValue(result: RemoteObject): { type: string; value: unknown } {
  if (result.subtype === 'null') return { type: 'null', value: null };
  if (result.type === 'undefined') return { type: 'undefined', value: null };
  if (result.unserializableValue !== undefined)
    return { type: result.type, value: result.unserializableValue };
  if (result.subtype === 'array' || Array.isArray(result.value))
    return { type: 'array', value: result.value ?? [] };
  return { type: result.type, value: result.value ?? null };
}
