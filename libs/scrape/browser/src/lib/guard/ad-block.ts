import type { PageElement, PageGlobals } from '../render/in-page.types';

/**
 * What `blockAds` blocks: requests to ad, tracking and consent-manager hosts (a curated list of
 * the networks that serve most ads and cookie pop-ups), requests whose path is an ad-serving path,
 * and cookie/consent banners still in the page (hidden at document start, removed before capture).
 */
const AD_HOSTS = [
  // ad networks and exchanges
  'doubleclick.net',
  'googlesyndication.com',
  'googleadservices.com',
  'googletagservices.com',
  'adservice.google.com',
  'pagead2.googlesyndication.com',
  'amazon-adsystem.com',
  'adnxs.com',
  'adsrvr.org',
  'criteo.com',
  'criteo.net',
  'taboola.com',
  'outbrain.com',
  'pubmatic.com',
  'rubiconproject.com',
  'openx.net',
  'casalemedia.com',
  'advertising.com',
  'media.net',
  'yieldmo.com',
  'smartadserver.com',
  'teads.tv',
  'sharethrough.com',
  '33across.com',
  'indexww.com',
  'bidswitch.net',
  'adform.net',
  'moatads.com',
  'zedo.com',
  'adroll.com',
  'revcontent.com',
  'mgid.com',
  'propellerads.com',
  'popads.net',
  'adsterra.com',
  // trackers commonly bundled with ads
  'scorecardresearch.com',
  'quantserve.com',
  'quantcount.com',
  'hotjar.com',
  'mouseflow.com',
  'crazyegg.com',
  'ads-twitter.com',
  'ads.linkedin.com',
  'analytics.tiktok.com',
  'connect.facebook.net',
  // consent managers (cookie pop-ups)
  'cookielaw.org',
  'onetrust.com',
  'cookiebot.com',
  'consensu.org',
  'trustarc.com',
  'usercentrics.eu',
  'didomi.io',
  'osano.com',
  'termly.io',
  'iubenda.com',
  'cookieyes.com',
  'cookie-script.com',
  'consentmanager.net',
  'sourcepoint.com',
  'privacy-mgmt.com',
];

const AD_PATH =
  /\/(?:ads?|adserver|adservice|advert(?:s|isement)?|pagead|banners?\/ads?|prebid)(?:[/._-]|$)|\/(?:ads|prebid|adsbygoogle)\.js(?:$|\?)/i;

const hostSet = new Set(AD_HOSTS);

export function isAdHost(hostname: string): boolean {
  let host = hostname.toLowerCase().replace(/\.$/, '');
  for (;;) {
    if (hostSet.has(host)) return true;
    const dot = host.indexOf('.');
    if (dot < 0) return false;
    host = host.slice(dot + 1);
  }
}

/** True for requests `blockAds` refuses: an ad/tracker/consent host, or an ad-serving path. */
export function isAdRequest(url: URL): boolean {
  return isAdHost(url.hostname) || AD_PATH.test(url.pathname);
}

/** Cookie and consent banners of the common consent managers and hand-made ones. */
export const CONSENT_SELECTORS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay',
  '#usercentrics-root',
  '#didomi-host',
  '#truste-consent-track',
  '#qc-cmp2-container',
  '.qc-cmp2-container',
  '#sp_message_container',
  '[id^="sp_message_container"]',
  '.fc-consent-root',
  '.cc-window',
  '.cc-banner',
  '.cky-consent-container',
  '#cookie-law-info-bar',
  '#cookiescript_injected',
  '.osano-cm-window',
  '#iubenda-cs-banner',
  '#cmpbox',
  '#cmpwrapper',
  '[aria-label="cookieconsent"]',
  '[id*="cookie-banner" i]',
  '[class*="cookie-banner" i]',
  '[id*="cookie-consent" i]',
  '[class*="cookie-consent" i]',
  '[id*="cookie-notice" i]',
  '[class*="cookie-notice" i]',
  '[id*="cookiebar" i]',
  '[class*="cookiebar" i]',
  '[id*="consent-banner" i]',
  '[class*="consent-banner" i]',
  '[id*="gdpr" i]',
  '[class*="gdpr-banner" i]',
];

/** Runs in the page at document start: hides consent banners before they paint. */
export function consentHidingScript(selectors: readonly string[]): string {
  const css = `${selectors.join(',')}{display:none!important;visibility:hidden!important}`;
  return `(() => {
  const css = ${JSON.stringify(css)};
  const add = () => {
    if (!document.documentElement || document.getElementById('__quarry_consent_css')) return;
    const style = document.createElement('style');
    style.id = '__quarry_consent_css';
    style.textContent = css;
    document.documentElement.appendChild(style);
  };
  add();
  document.addEventListener('DOMContentLoaded', add, { once: true });
})();`;
}

/** Runs before capture: removes consent banners and the scroll locks they put on the page. */
export function removeConsentBanners(selectors: readonly string[]): number {
  const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
  let removed = 0;
  for (const selector of selectors) {
    let matches: PageElement[] = [];
    try {
      matches = Array.from(document.querySelectorAll(selector));
    } catch {
      continue;
    }
    for (const element of matches) {
      if (element === document.body || element === document.documentElement) continue;
      element.remove();
      removed += 1;
    }
  }
  document.getElementById('__quarry_consent_css')?.remove();
  for (const element of [document.documentElement, document.body]) {
    if (element && getComputedStyle(element).overflow === 'hidden')
      element.style.setProperty('overflow', 'auto', 'important');
  }
  return removed;
}
