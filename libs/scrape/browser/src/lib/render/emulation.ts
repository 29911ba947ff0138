import { type CDPSession, KnownDevices, type Page, type Viewport } from 'puppeteer-core';

import { type LocationProfile, locationProfile } from '@quarry/scrape/engine';

export interface EmulationRequest {
  mobile: boolean;
  location?: { country: string; languages?: string[] };
  /** A `User-Agent` given in the request's headers. */
  userAgent?: string;
}

export const DESKTOP_VIEWPORT: Viewport = {
  width: 1440,
  height: 900,
  deviceScaleFactor: 1,
  isMobile: false,
  hasTouch: false,
};
const MOBILE_DEVICE = KnownDevices['iPhone 15 Pro'];

/** The user agent pages see by default: the browser's own, without the "Headless" marker. */
export function desktopUserAgent(browserUserAgent: string): string {
  return browserUserAgent.replace(/HeadlessChrome/g, 'Chrome');
}

/**
 * Device and place the page sees (`mobile`, `location`: docs/scraping.md#options): viewport and touch,
 * user agent, Accept-Language and `navigator.languages`, `Intl` locale and time zone. Applied
 * through one DevTools session before navigation.
 */
export async function applyEmulation(
  page: Page,
  cdp: CDPSession,
  request: EmulationRequest,
  defaultUserAgent: string,
): Promise<{ viewport: Viewport; location: LocationProfile }> {
  const location = locationProfile(request.location?.country ?? 'US', request.location?.languages);
  const viewport: Viewport = request.mobile ? { ...MOBILE_DEVICE.viewport } : { ...DESKTOP_VIEWPORT };
  const userAgent = request.userAgent ?? (request.mobile ? MOBILE_DEVICE.userAgent : defaultUserAgent);
  await page.setViewport(viewport);
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent,
    // Chromium adds the q-values itself.
    acceptLanguage: location.languages.join(','),
    platform: request.mobile ? 'iPhone' : 'Linux x86_64',
  });
  await cdp.send('Emulation.setLocaleOverride', { locale: location.locale });
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: location.timezone }).catch(async () => {
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'UTC' });
    location.timezone = 'UTC';
  });
  return { viewport, location };
}
