import type { CDPSession, Viewport } from 'puppeteer-core';

import { AppError } from '@quarry/contracts';
import type { AddressPolicy } from '@quarry/platform/net';
import {
  applyEmulation,
  type BrowserPool,
  captureProfile,
  closeSlot,
  CONSENT_SELECTORS,
  consentHidingScript,
  desktopUserAgent,
  loadProfile,
  openSlot,
  type PageSlot,
  type ProxyPools,
  RequestGuard,
  settle,
} from '@quarry/scrape/browser';
import { toScrapeError } from '@quarry/scrape/engine';
import { type InteractSessionRecord, mergeProfileState, type ProfileState } from '@quarry/scrape/state';

export interface SessionBrowserSettings {
  policy: AddressPolicy;
  maxTransferBytes: number;
  settleMs: number;
  userAgent?: string;
}

/** A session's page open in this worker's Chromium. */
export interface SessionPage {
  slot: PageSlot;
  cdp: CDPSession;
  viewport: Viewport;
  requestGuard: RequestGuard;
}

/** The connected Chromium of the pool; a dead one is relaunched by running an empty task through the pool. */
async function chromiumOf(pool: BrowserPool) {
  if (!pool.chromium)
    await pool.run(AbortSignal.timeout(30_000), async () => undefined).catch(() => undefined);
  const browser = pool.chromium;
  if (!browser)
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: 'The browser is not available right now; retry shortly',
    });
  return browser;
}

/** A fresh context for user code: behind its own guard proxy, nothing shared with the session page. */
export async function openSandbox(pool: BrowserPool, settings: SessionBrowserSettings): Promise<PageSlot> {
  return openSlot(await chromiumOf(pool), {
    policy: settings.policy,
    maxTransferBytes: settings.maxTransferBytes,
  });
}

export { closeSlot };

/**
 * Opens (or restores) a session's page: a long-lived incognito context outside the pool's per-job
 * slots, behind its own guard proxy and request interception, emulated as the scrape was (mobile,
 * location, headers), with the session's cookies and localStorage, at its current URL. DOM state
 * from before a restore (form input, in-memory script state) is not recoverable.
 */
export async function openSessionPage(
  pool: BrowserPool,
  proxies: ProxyPools,
  settings: SessionBrowserSettings,
  session: InteractSessionRecord,
  deadline: number,
): Promise<SessionPage> {
  const slot = await openSlot(await chromiumOf(pool), {
    policy: settings.policy,
    maxTransferBytes: settings.maxTransferBytes,
  });
  try {
    const { page, context, guard } = slot;
    const options = session.options;
    const remaining = () => Math.max(1, deadline - Date.now());
    guard.route = {
      verifyTls: !options.skipTlsVerification,
      upstream: proxies.plan(options.proxy, options.location?.country)[0]?.url,
    };
    const cdp = await page.createCDPSession();
    const headers = Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
    );
    const userAgent = headers['user-agent'];
    delete headers['user-agent'];
    const target = new URL(session.currentUrl);
    const requestGuard = new RequestGuard({
      resolver: guard.resolver,
      blockAds: options.blockAds,
      headers,
      targetHost: new URL(options.url).hostname,
    });
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    // Popups would escape request interception (the guard proxy still covers them): they are closed.
    context.on('targetcreated', (created) => {
      if (created.type() !== 'page') return;
      void created
        .page()
        .then((opened) => (opened && opened !== page ? opened.close() : undefined))
        .catch(() => undefined);
    });
    const { viewport } = await applyEmulation(
      page,
      cdp,
      { mobile: options.mobile, location: options.location, userAgent },
      settings.userAgent ?? desktopUserAgent(await page.browser().userAgent()),
    );
    if (options.blockAds) await page.evaluateOnNewDocument(consentHidingScript(CONSENT_SELECTORS));
    await loadProfile(page, session.state);
    await requestGuard.attach(page);
    try {
      await page.goto(target.href, { waitUntil: 'load', timeout: remaining() });
    } catch (error) {
      const refused = requestGuard.refused.find((entry) => entry.navigation);
      // A refusal of the outbound guard is the policy answering, not the target failing: 403, not 500.
      if (refused)
        throw new AppError('FORBIDDEN', {
          message: `The session's page ${target.href} could not be opened: blocked insecure target URL (${refused.reason})`,
        });
      throw toScrapeError(error, target.href);
    }
    await settle(page, Math.min(settings.settleMs, remaining()));
    return { slot, cdp, viewport, requestGuard };
  } catch (error) {
    await closeSlot(slot);
    throw error;
  }
}

/** Where the page is and its storage, merged into the session's previous state (other origins kept). */
export async function captureSessionState(
  page: SessionPage,
  previous: ProfileState,
): Promise<{ url: string; state: ProfileState }> {
  const current = await captureProfile(page.slot.page, page.slot.context.cookies());
  return { url: page.slot.page.url(), state: mergeProfileState(previous, current) };
}
