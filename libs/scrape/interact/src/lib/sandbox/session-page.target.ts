import type { CDPSession, ElementHandle, KeyInput, Page, Viewport } from 'puppeteer-core';

import type { HostResolver } from '@quarry/scrape/browser';
import { settle, takeScreenshot } from '@quarry/scrape/browser';

import { type ShimArgs, ShimError, type ShimTarget } from './page-shim';

export interface SessionPageTargetOptions {
  page: Page;
  cdp: CDPSession;
  resolver: HostResolver;
  viewport: Viewport;
  /** Epoch ms: no operation waits past it. */
  deadline: number;
  /** Largest document `content()` returns. */
  maxDocumentBytes: number;
  storeScreenshot(data: Buffer, contentType: string, extension: string): Promise<string>;
}

/** Default wait for an element, as Playwright's actionability wait (bounded by the call's deadline). */
const ELEMENT_WAIT_MS = 5_000;
/** Short settle after interactions, so what they triggered lands before the next step. */
const AFTER_INTERACTION_MS = 500;

interface DomElement {
  value: string;
  textContent: string | null;
  innerText: string;
  innerHTML: string;
  focus(): void;
  click(): void;
  dispatchEvent(event: unknown): boolean;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { width: number; height: number };
}

/**
 * The whitelisted page operations (page-shim.ts) performed on the session's page with puppeteer.
 * Navigations are checked against the outbound policy first (and by the request guard and guard
 * proxy behind the page); code passed to `evaluate` runs inside the page, never in this process.
 */
export class SessionPageTarget implements ShimTarget {
  private inPage = 0;

  constructor(private readonly options: SessionPageTargetOptions) {}

  /** True while an `evaluate` runs in the page (a kill then terminates it). */
  get evaluating(): boolean {
    return this.inPage > 0;
  }

  private remaining(cap = Number.POSITIVE_INFINITY): number {
    return Math.max(1, Math.min(cap, this.options.deadline - Date.now()));
  }

  private async element(selector: string, timeout?: number): Promise<ElementHandle> {
    const handle = await this.options.page
      .waitForSelector(selector, { timeout: this.remaining(timeout ?? ELEMENT_WAIT_MS) })
      .catch(() => null);
    if (!handle) throw new ShimError(`no element matches ${selector}`);
    return handle as ElementHandle;
  }

  private async settle(): Promise<void> {
    await settle(this.options.page, this.remaining(AFTER_INTERACTION_MS));
  }

  goto = async (...[url, options]: ShimArgs<'goto'>) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new ShimError(`page.goto: invalid URL ${url}`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new ShimError(`page.goto: only http and https URLs can be opened (${target.protocol})`);
    const resolution = await this.options.resolver.resolve(target.hostname);
    if (!resolution.ok) {
      throw new ShimError(
        resolution.reason === 'dns'
          ? `page.goto: the domain ${target.hostname} could not be resolved`
          : `page.goto: blocked insecure target URL ${target.href} (private, loopback or metadata address)`,
      );
    }
    const waitUntil =
      options?.waitUntil === 'domcontentloaded'
        ? 'domcontentloaded'
        : options?.waitUntil === 'networkidle'
          ? 'networkidle2'
          : 'load';
    const response = await this.options.page
      .goto(target.href, { waitUntil, timeout: this.remaining(options?.timeout) })
      .catch((error: unknown) => {
        throw new ShimError(`page.goto: ${target.href} could not be opened (${messageOf(error)})`);
      });
    return { url: this.options.page.url(), status: response?.status() ?? null };
  };

  reload = async () => {
    const response = await this.options.page.reload({ waitUntil: 'load', timeout: this.remaining() });
    return { url: this.options.page.url(), status: response?.status() ?? null };
  };

  goBack = async () => {
    const response = await this.options.page.goBack({ waitUntil: 'load', timeout: this.remaining() });
    return { url: this.options.page.url(), status: response?.status() ?? null };
  };

  click = async (...[selector, options]: ShimArgs<'click'>) => {
    const handle = await this.element(selector, options?.timeout);
    // A real mouse click where possible (it focuses inputs), a DOM click otherwise.
    await handle
      .click()
      .catch(() => handle.evaluate((element) => (element as unknown as DomElement).click()));
    await handle.dispose();
    await this.settle();
  };

  fill = async (...[selector, value]: ShimArgs<'fill'>) => {
    const handle = await this.element(selector);
    await handle.evaluate((element) => {
      const input = element as unknown as DomElement;
      input.focus();
      input.value = '';
    });
    await handle.type(value);
    await handle.evaluate((element) => {
      const { Event } = globalThis as unknown as { Event: new (type: string, init: object) => unknown };
      (element as unknown as DomElement).dispatchEvent(new Event('change', { bubbles: true }));
    });
    await handle.dispose();
  };

  type = async (...[selector, text, options]: ShimArgs<'type'>) => {
    const handle = await this.element(selector);
    await handle.type(text, { delay: options?.delay ?? 0 });
    await handle.dispose();
  };

  press = async (...[selector, key]: ShimArgs<'press'>) => {
    const handle = await this.element(selector);
    await handle.press(key as KeyInput);
    await handle.dispose();
    await this.settle();
  };

  hover = async (...[selector]: ShimArgs<'hover'>) => {
    const handle = await this.element(selector);
    await handle.hover();
    await handle.dispose();
  };

  selectOption = async (...[selector, values]: ShimArgs<'selectOption'>) => {
    await this.element(selector).then((handle) => handle.dispose());
    return this.options.page.select(selector, ...(Array.isArray(values) ? values : [values]));
  };

  waitForSelector = async (...[selector, options]: ShimArgs<'waitForSelector'>) => {
    const state = options?.state ?? 'visible';
    const handle = await this.options.page
      .waitForSelector(selector, {
        timeout: this.remaining(options?.timeout ?? 30_000),
        visible: state === 'visible',
        hidden: state === 'hidden' || state === 'detached',
      })
      .catch((error: unknown) => {
        throw new ShimError(
          `page.waitForSelector: ${selector} (${state}) did not happen in time (${messageOf(error)})`,
        );
      });
    await handle?.dispose();
    return true;
  };

  evaluate = async (...[kind, source, args]: ShimArgs<'evaluate'>) => {
    const expression = kind === 'function' ? `(${source}).apply(null, ${JSON.stringify(args)})` : source;
    this.inPage += 1;
    try {
      const outcome = (await this.options.cdp.send('Runtime.evaluate', {
        expression,
        awaitPromise: true,
        returnByValue: true,
        userGesture: true,
        replMode: kind === 'expression',
        timeout: this.remaining(),
      })) as {
        result: { type: string; value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      };
      if (outcome.exceptionDetails) {
        const detail =
          outcome.exceptionDetails.exception?.description?.split('\n')[0] ?? outcome.exceptionDetails.text;
        throw new ShimError(`page.evaluate: the script threw: ${detail}`);
      }
      return outcome.result.value;
    } finally {
      this.inPage -= 1;
    }
  };

  content = async () => {
    const html = await this.options.page.content();
    if (Buffer.byteLength(html) > this.options.maxDocumentBytes)
      throw new ShimError(`page.content: the document exceeds ${this.options.maxDocumentBytes} bytes`);
    return html;
  };

  title = async () => this.options.page.title();

  url = async () => this.options.page.url();

  textContent = async (...[selector]: ShimArgs<'textContent'>) =>
    (await this.element(selector)).evaluate((element) => (element as unknown as DomElement).textContent);

  innerText = async (...[selector]: ShimArgs<'innerText'>) =>
    (await this.element(selector)).evaluate((element) => (element as unknown as DomElement).innerText);

  innerHTML = async (...[selector]: ShimArgs<'innerHTML'>) =>
    (await this.element(selector)).evaluate((element) => (element as unknown as DomElement).innerHTML);

  getAttribute = async (...[selector, name]: ShimArgs<'getAttribute'>) =>
    (await this.element(selector)).evaluate(
      (element, attribute) => (element as unknown as DomElement).getAttribute(attribute),
      name,
    );

  inputValue = async (...[selector]: ShimArgs<'inputValue'>) =>
    (await this.element(selector)).evaluate((element) => (element as unknown as DomElement).value ?? '');

  isVisible = async (...[selector]: ShimArgs<'isVisible'>) => {
    const handle = await this.options.page.$(selector);
    if (!handle) return false;
    const box = await handle.boundingBox();
    await handle.dispose();
    return box !== null && box.width > 0 && box.height > 0;
  };

  count = async (...[selector]: ShimArgs<'count'>) => {
    const handles = await this.options.page.$$(selector);
    await Promise.all(handles.map((handle) => handle.dispose()));
    return handles.length;
  };

  screenshot = async (...[options]: ShimArgs<'screenshot'>) => {
    const quality =
      options?.type === 'png' ? undefined : (options?.quality ?? (options?.type === 'jpeg' ? 80 : undefined));
    const image = await takeScreenshot(
      this.options.page,
      { fullPage: options?.fullPage ?? false, ...(quality !== undefined ? { quality } : {}) },
      this.options.viewport,
    );
    return this.options.storeScreenshot(image.data, image.contentType, image.extension);
  };

  'keyboard.press' = async (...[key]: ShimArgs<'keyboard.press'>) => {
    await this.options.page.keyboard.press(key as KeyInput);
    await this.settle();
  };

  'keyboard.type' = async (...[text]: ShimArgs<'keyboard.type'>) => {
    await this.options.page.keyboard.type(text);
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
