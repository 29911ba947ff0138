import type { CDPSession, Cookie, HTTPResponse, Page, Viewport } from 'puppeteer-core';

import { type ActionResults, findFormat, hasFormat, type ScrapeRequest } from '@quarry/contracts';
import { BlockedAddressError, DnsResolutionError } from '@quarry/platform/net';
import {
  DEFAULT_PAGE_LIMITS,
  type PageLimits,
  pageTooLarge,
  PageTooLargeError,
} from '@quarry/scrape/content';
import {
  droppedHeadersWarning,
  type FetchedPage,
  forwardableHeaders,
  type PageArtifacts,
} from '@quarry/scrape/engine';
import type { ProfileState, StoredCookie } from '@quarry/scrape/state';

import { CONSENT_SELECTORS, consentHidingScript, removeConsentBanners } from '../guard/ad-block';
import { DocumentSizeGuard } from '../guard/document-size-guard';
import type { GuardEvent, GuardRoute } from '../guard/guard-proxy';
import { type RefusedRequest, RequestGuard } from '../guard/request-guard';
import type { PageSlot } from '../pool/isolated-context.concurrency';
import { type ArtifactKind, runActions, takeScreenshot } from './actions-runner';
import { captureBranding } from './branding.capture';
import { applyEmulation } from './emulation';
import type { PageGlobals } from './in-page.types';
import { installSettleProbe, settle, sleep } from './settle';
import { renderedHtml } from './shadow-dom';

export interface RenderOptions {
  request: ScrapeRequest;
  signal: AbortSignal;
  /** Epoch ms by which the page must be captured. */
  deadline: number;
  route: GuardRoute;
  /** Desktop user agent. */
  userAgent: string;
  /** Cap of the automatic wait after load. */
  settleMs: number;
  /** Largest rendered document accepted. */
  maxDocumentBytes: number;
  /** Bounds on a document Chromium may parse (`MAX_PAGE_ELEMENTS`, `MAX_PAGE_LINKS`); defaults apply when absent. */
  pageLimits?: PageLimits;
  profile?: { state: ProfileState; save: boolean };
  store(kind: ArtifactKind, data: Buffer, contentType: string, extension: string): Promise<string>;
  /** Called as each phase ends (setup, navigation, settle, actions, capture): timing and tracing. */
  onPhase?: (phase: string) => void;
}

export interface RenderResult {
  page: FetchedPage;
  /** The profile state to write back (only when saving). */
  profileState?: ProfileState;
  guardEvents: GuardEvent[];
  refused: RefusedRequest[];
  adsBlocked: number;
}

/** The page is a download or a non-renderable type the browser would not show. */
export class NotRenderableError extends Error {
  constructor(url: string) {
    super(`the browser could not render ${url} (download or unsupported type)`);
    this.name = 'NotRenderableError';
  }
}

/** The guard refused the certificate of the target (skipTlsVerification: false). */
export class BrowserTlsError extends Error {
  readonly code = 'ERR_TLS_CERT_INVALID';
  constructor(detail: string) {
    super(`TLS certificate verification failed: ${detail}`);
    this.name = 'BrowserTlsError';
  }
}

/** The page transferred more than the configured budget. */
export class TransferBudgetError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  constructor(detail: string) {
    super(detail);
    this.name = 'TransferBudgetError';
  }
}

/** The tab ended on Chromium's own error page (`chrome-error://…`) instead of a page of the target. */
export class BrowserErrorPageError extends Error {
  readonly code = 'BROWSER_ERROR_PAGE';
  constructor() {
    super('the page navigated to an address the browser could not load (it showed its own error page)');
    this.name = 'BrowserErrorPageError';
  }
}

export class RenderTimeoutError extends Error {
  constructor() {
    super('the page did not finish within the request timeout');
    this.name = 'TimeoutError';
  }
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

/**
 * Renders one request in a pool slot: emulation, guard, profile, navigation, automatic wait,
 * `waitFor`, actions, consent-banner removal, capture of the document and of the artifacts the
 * request asked for (screenshot, branding), and the profile state to save.
 */
export async function renderPage(slot: PageSlot, options: RenderOptions): Promise<RenderResult> {
  const { page, guard } = slot;
  const { request } = options;
  const remaining = () => Math.max(0, options.deadline - Date.now());
  const target = new URL(request.url.trim());
  guard.route = options.route;

  const cdp = await page.createCDPSession();
  const forwarded = forwardableHeaders(request.headers);
  const headers = lowerCaseKeys(forwarded.headers);
  const headerWarning = droppedHeadersWarning(forwarded.dropped);
  const userAgent = headers['user-agent'];
  delete headers['user-agent'];
  const requestGuard = new RequestGuard({
    resolver: guard.resolver,
    blockAds: request.blockAds,
    headers,
    targetHost: target.hostname,
  });
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  page.setDefaultTimeout(Math.max(1, remaining()));
  const { viewport, location } = await applyEmulation(
    page,
    cdp,
    { mobile: request.mobile, location: request.location, userAgent },
    options.userAgent,
  );
  await installSettleProbe(page);
  if (request.blockAds) await page.evaluateOnNewDocument(consentHidingScript(CONSENT_SELECTORS));
  if (options.profile) await loadProfile(page, options.profile.state);
  await requestGuard.attach(page);
  const sizeGuard = new DocumentSizeGuard(cdp, {
    ...(options.pageLimits ?? DEFAULT_PAGE_LIMITS),
    maxBytes: options.maxDocumentBytes,
  });
  await sizeGuard.attach();
  options.onPhase?.('setup');

  let lastDocument: HTTPResponse | null = null;
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame())
      lastDocument = response;
  });

  let response: HTTPResponse | null;
  try {
    response = await page.goto(target.href, { waitUntil: 'load', timeout: Math.max(1, remaining()) });
  } catch (error) {
    throw navigationError(error, {
      options,
      requestGuard,
      sizeGuard,
      events: guard.events,
      target,
      hadDocument: lastDocument !== null,
    });
  }
  options.onPhase?.('navigation');
  slot.prepareNext?.();
  // A navigation refused after this point (meta refresh, script, a click) leaves Chromium's error
  // page in the tab: whatever the capture below produced or threw, the refusal is the answer.
  const refusal = () => tooLarge(sizeGuard) ?? refusedNavigation(page, requestGuard, guard.events);
  try {
    const rendered = await capture(slot, options, {
      warnings: headerWarning ? [headerWarning] : [],
      cdp,
      requestGuard,
      target,
      location,
      viewport,
      response,
      lastDocument: () => lastDocument,
    });
    const refused = refusal();
    if (refused) throw refused;
    return rendered;
  } catch (error) {
    throw refusal() ?? error;
  }
}

interface Navigated {
  /** For the document's `warning`. */
  warnings: string[];
  cdp: CDPSession;
  requestGuard: RequestGuard;
  target: URL;
  location: { timezone: string };
  viewport: Viewport;
  response: HTTPResponse | null;
  lastDocument: () => HTTPResponse | null;
}

/** After navigation: the wait, `waitFor`, actions, and the capture of the document and artifacts. */
async function capture(slot: PageSlot, options: RenderOptions, navigated: Navigated): Promise<RenderResult> {
  const { page, context, guard } = slot;
  const { request } = options;
  const { cdp, requestGuard, target, location, viewport, response } = navigated;
  const remaining = () => Math.max(0, options.deadline - Date.now());
  const mainResponse = navigated.lastDocument() ?? response;
  const contentType = mainResponse?.headers()['content-type'];

  // Non-HTML targets (JSON, text, PDF, images…): the response bytes, as the HTTP engine would give them.
  if (mainResponse && contentType && !HTML_TYPES.test(contentType)) {
    const body = await mainResponse.buffer().catch(() => undefined);
    if (!body) throw new NotRenderableError(target.href);
    return {
      page: {
        engine: 'browser',
        url: page.url(),
        status: mainResponse.status(),
        headers: mainResponse.headers(),
        contentType,
        body,
        metadata: { timezone: location.timezone },
        ...pageWarnings(navigated),
      },
      guardEvents: guard.events,
      refused: requestGuard.refused,
      adsBlocked: requestGuard.adsBlocked,
    };
  }

  // rawBase64 is the HTTP response body: read it before scripts and actions change the page.
  const responseBody = hasFormat(request.formats, 'rawBase64')
    ? await mainResponse?.buffer().catch(() => undefined)
    : undefined;

  await settle(page, Math.min(options.settleMs, remaining()));
  if (request.waitFor > 0) await sleep(Math.min(request.waitFor, remaining()), options.signal);
  checkTime(options);
  options.onPhase?.('settle');

  const artifacts: PageArtifacts = {};
  let actions: ActionResults | undefined;
  if (request.actions?.length) {
    actions = await runActions(request.actions, {
      page,
      cdp,
      signal: options.signal,
      deadline: options.deadline,
      viewport,
      store: options.store,
    });
    artifacts.actions = actions;
  }
  if (request.blockAds) await page.evaluate(removeConsentBanners, CONSENT_SELECTORS).catch(() => 0);
  checkTime(options);
  options.onPhase?.('actions');

  const html = await renderedHtml(page);
  if (Buffer.byteLength(html) > options.maxDocumentBytes) {
    throw new TransferBudgetError(
      `The rendered document exceeds the limit of ${options.maxDocumentBytes} bytes`,
    );
  }
  const screenshot = findFormat(request.formats, 'screenshot');
  if (screenshot) {
    const image = await takeScreenshot(page, screenshot, viewport);
    artifacts.screenshot = await options.store('screenshot', image.data, image.contentType, image.extension);
  }
  if (hasFormat(request.formats, 'branding'))
    artifacts.branding = await page.evaluate(captureBranding).catch(() => null);
  const profileState = options.profile?.save ? await captureProfile(page, context.cookies()) : undefined;
  const budget = guard.events.find((event) => event.kind === 'budget');
  if (budget) throw new TransferBudgetError(budget.detail ?? 'The page transferred too much data');

  options.onPhase?.('capture');
  const finalResponse = navigated.lastDocument() ?? mainResponse;
  return {
    page: {
      engine: 'browser',
      url: page.url(),
      status: finalResponse?.status() ?? 200,
      headers: finalResponse?.headers() ?? {},
      contentType: 'text/html; charset=utf-8',
      body: Buffer.from(html, 'utf8'),
      ...(responseBody ? { responseBody } : {}),
      text: html,
      metadata: { timezone: location.timezone },
      ...pageWarnings(navigated),
      artifacts,
    },
    profileState,
    guardEvents: guard.events,
    refused: requestGuard.refused,
    adsBlocked: requestGuard.adsBlocked,
  };
}

function pageWarnings(navigated: Navigated): { warnings?: string[] } {
  const warnings = [...navigated.warnings];
  if (navigated.requestGuard.headersRefused)
    warnings.push(
      'The browser refused some of the request headers; those requests were sent without the headers option.',
    );
  return warnings.length ? { warnings } : {};
}

function checkTime(options: RenderOptions): void {
  if (options.signal.aborted || Date.now() >= options.deadline) throw new RenderTimeoutError();
}

/**
 * A main-frame navigation the guards refused at any time (redirect hop, meta refresh, script,
 * window.open into the tab), or Chromium's error page standing in for the document: the error the
 * scrape answers instead of the page. Undefined while the tab shows a page of the target.
 */
function refusedNavigation(page: Page, requestGuard: RequestGuard, events: GuardEvent[]): Error | undefined {
  const refused = requestGuard.refused.find((entry) => entry.navigation);
  if (refused) return refusalError(refused);
  if (!page.url().startsWith('chrome-error:')) return undefined;
  const blocked = events.find((event) => event.kind === 'blocked');
  if (blocked) return new BlockedAddressError(blocked.target, blocked.address);
  return new BrowserErrorPageError();
}

/**
 * The tab's document was kept from Chromium for passing a bound: the HTTP path's answers (422 "page
 * too large to process", or the decoded-size error), no credits.
 */
function tooLarge(sizeGuard: DocumentSizeGuard): Error | undefined {
  const refused = sizeGuard.mainDocumentRefusal();
  if (!refused) return undefined;
  return refused.error instanceof PageTooLargeError ? pageTooLarge(refused.error.message) : refused.error;
}

function refusalError(refused: RefusedRequest): Error {
  if (refused.reason === 'dns') return new DnsResolutionError(hostOf(refused.url));
  return new BlockedAddressError(refused.url, refused.address);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

interface NavigationFailure {
  options: RenderOptions;
  requestGuard: RequestGuard;
  sizeGuard: DocumentSizeGuard;
  events: GuardEvent[];
  target: URL;
  hadDocument: boolean;
}

/** Explains a failed navigation with what the guards saw (refusal, TLS, budget) before the browser's own net:: code. */
function navigationError(error: unknown, failure: NavigationFailure): Error {
  const { options, requestGuard, events, target } = failure;
  const oversized = tooLarge(failure.sizeGuard);
  if (oversized) return oversized;
  const refusedDocument = requestGuard.refused.find((entry) => entry.navigation);
  if (refusedDocument) return refusalError(refusedDocument);
  const proxyRefusal = events.find(
    (event) => event.kind === 'blocked' && event.target.includes(target.hostname),
  );
  if (proxyRefusal) return new BlockedAddressError(target.href, proxyRefusal.address);
  const tls = events.find((event) => event.kind === 'tls');
  if (tls) return new BrowserTlsError(tls.detail ?? tls.target);
  const budget = events.find((event) => event.kind === 'budget');
  if (budget) return new TransferBudgetError(budget.detail ?? 'The page transferred too much data');
  if (options.signal.aborted || Date.now() >= options.deadline || (error as Error)?.name === 'TimeoutError')
    return new RenderTimeoutError();
  const message = error instanceof Error ? error.message : String(error);
  if (/net::ERR_ABORTED/.test(message) && !failure.hadDocument) return new NotRenderableError(target.href);
  if (/net::ERR_NAME_NOT_RESOLVED/.test(message)) return new DnsResolutionError(target.hostname);
  return error instanceof Error ? error : new Error(message);
}

export async function loadProfile(page: Page, state: ProfileState): Promise<void> {
  if (state.cookies.length) await page.browserContext().setCookie(...state.cookies.map(toCookieData));
  const origins = state.origins;
  if (Object.keys(origins).length === 0) return;
  // Seeds localStorage once per origin and tab (sessionStorage survives the page's own navigations).
  await page.evaluateOnNewDocument((saved: Record<string, Record<string, string>>) => {
    const { location, localStorage, sessionStorage } = globalThis as unknown as PageGlobals;
    try {
      const items = saved[location.origin];
      if (!items || sessionStorage.getItem('__quarry_profile_loaded')) return;
      for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
      sessionStorage.setItem('__quarry_profile_loaded', '1');
    } catch {
      // storage disabled for this origin
    }
  }, origins);
}

export async function captureProfile(page: Page, cookies: Promise<Cookie[]>): Promise<ProfileState> {
  const stored: StoredCookie[] = (await cookies).map((cookie) => ({
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.expires,
    httpOnly: cookie.httpOnly ?? false,
    secure: cookie.secure,
    ...(cookie.sameSite && cookie.sameSite !== 'Default' ? { sameSite: cookie.sameSite } : {}),
  }));
  const storage = await page
    .evaluate(() => {
      const { location, localStorage } = globalThis as unknown as PageGlobals;
      const items: Record<string, string> = {};
      for (let index = 0; index < localStorage.length; index += 1) {
        const key = localStorage.key(index);
        if (key !== null) items[key] = localStorage.getItem(key) ?? '';
      }
      return { origin: location.origin, items };
    })
    .catch(() => undefined);
  const origins: Record<string, Record<string, string>> = {};
  if (storage && storage.origin.startsWith('http')) origins[storage.origin] = storage.items;
  return { cookies: stored, origins };
}

function toCookieData(cookie: StoredCookie) {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    ...(cookie.expires > 0 ? { expires: cookie.expires } : {}),
    ...(cookie.sameSite ? { sameSite: cookie.sameSite } : {}),
  };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}
