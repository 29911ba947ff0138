import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';

import { REPO_ROOT } from './service-process';

/** Where the browser suites save their screenshots (git-ignored, like everything under tmp/). */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'tmp', 'e2e-artifacts');

const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => !!path && existsSync(path),
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * A real Chromium (Debian's, through puppeteer-core) with one page, recording what a test must not
 * see: uncaught page errors, Content-Security-Policy violations and the URLs of every request and
 * WebSocket the page opens (to prove keys never travel in a URL).
 */
export class BrowserSession {
  readonly pageErrors: string[] = [];
  readonly cspViolations: string[] = [];
  readonly urls: string[] = [];
  private shot = 0;

  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    private readonly artifacts: string,
  ) {}

  static async start(suite: string): Promise<BrowserSession> {
    if (!CHROMIUM) throw new Error('Chromium not found (set CHROMIUM_PATH; make test installs it)');
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const artifacts = join(ARTIFACTS_DIR, suite);
    mkdirSync(artifacts, { recursive: true });
    const session = new BrowserSession(browser, page, artifacts);
    page.on('pageerror', (error) =>
      session.pageErrors.push(error instanceof Error ? error.message : String(error)),
    );
    page.on('request', (request) => session.urls.push(request.url()));
    // CSP violations as the page reports them (runs before the page's own scripts, outside its CSP)
    await page.evaluateOnNewDocument(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { __csp: string[] }).__csp ??= [];
        (window as unknown as { __csp: string[] }).__csp.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) session.cspViolations.push(message.text());
    });
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketCreated', (event: { url: string }) => session.urls.push(event.url));
    return session;
  }

  /** CSP violations recorded by the current document. */
  async documentCspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
  }

  /** Saves a full-page screenshot as `<n>-<name>.png` and returns its path. */
  async screenshot(name: string): Promise<string> {
    this.shot += 1;
    const path = join(this.artifacts, `${String(this.shot).padStart(2, '0')}-${name}.png`) as `${string}.png`;
    await this.page.screenshot({ path, fullPage: true });
    return path;
  }

  /** axe-core's violations of impact serious or critical on the current page. */
  async seriousAccessibilityViolations(): Promise<AxeViolation[]> {
    const loaded = await this.page.evaluate(
      () => typeof (window as unknown as { axe?: unknown }).axe === 'object',
    );
    if (!loaded) await this.page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await this.page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
        }
      ).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
      }));
    });
    return violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
  }

  /** Waits until an element matching `selector` contains `text`; on timeout saves a screenshot and says what was there. */
  async waitForText(selector: string, text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    const pattern = typeof text === 'string' ? text : text.source;
    try {
      await this.page.waitForFunction(
        (css: string, source: string, regex: boolean) =>
          [...document.querySelectorAll(css)].some((element) =>
            regex
              ? new RegExp(source).test(element.textContent ?? '')
              : (element.textContent ?? '').includes(source),
          ),
        { timeout: timeoutMs, polling: 200 },
        selector,
        pattern,
        typeof text !== 'string',
      );
    } catch (error) {
      const seen = await this.page
        .$$eval(selector, (elements) => elements.map((element) => element.textContent?.slice(0, 300)))
        .catch(() => []);
      const shot = await this.screenshot('failed-wait').catch(() => 'no screenshot');
      throw new Error(
        `"${pattern}" did not appear in ${selector} within ${timeoutMs} ms; it holds ${JSON.stringify(seen)} (${shot})`,
        { cause: error },
      );
    }
  }

  /** Clicks the first button or link whose text contains `text`. */
  async clickText(text: string, tags = 'button,a'): Promise<void> {
    const handle = await this.page.waitForFunction(
      (label: string, selector: string) =>
        [...document.querySelectorAll<HTMLElement>(selector)].find(
          (element) => (element.textContent ?? '').includes(label) && !element.hasAttribute('disabled'),
        ),
      { timeout: 30_000, polling: 200 },
      text,
      tags,
    );
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (!element) throw new Error(`no button or link "${text}"`);
    await element.click();
  }

  /** Types into the input labelled `label` (the label's `for` points at it). */
  async typeInto(label: string, text: string): Promise<void> {
    const id = await this.page.waitForFunction(
      (wanted: string) =>
        [...document.querySelectorAll('label')].find((element) => element.textContent?.trim() === wanted)
          ?.htmlFor || undefined,
      { timeout: 30_000, polling: 200 },
      label,
    );
    const selector = `[id="${String(await id.jsonValue())}"]`;
    await this.page.click(selector, { count: 3 });
    await this.page.type(selector, text);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
