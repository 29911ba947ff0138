/** Building blocks of the JavaScript-detection corpus pages (shared by the tuning and held-out sets). */

export interface CorpusRoute {
  body: string;
  contentType: string;
  /** Milliseconds the server waits before answering. */
  delayMs?: number;
}

export interface CorpusPage {
  id: string;
  /** What the page exercises (e.g. "timer", "fetch-then-render", "analytics"). */
  pattern: string;
  html: string;
  /**
   * A word of the page's meaningful content. JavaScript pages: absent from the text the server
   * sent, present once scripts ran. Static pages: in the server's HTML.
   */
  marker: string;
  /** Extra resources the page loads, by path (served beside the page). */
  routes?: Record<string, CorpusRoute>;
}

/**
 * Marker words of a corpus file: `prefix`, the page id's letters and digits, `word` — a token no
 * other page or chrome contains, so finding it in the output proves the page's own text is there.
 */
export const markerFor =
  (prefix: string) =>
  (id: string): string =>
    `${prefix}${id.replace(/[^a-z0-9]/g, '')}word`;

/** A marker as a JavaScript expression that does not contain it literally. */
export const split = (marker: string): string => `'${marker.slice(0, 4)}' + '${marker.slice(4)}'`;

export const json = (value: unknown): CorpusRoute => ({
  body: JSON.stringify(value),
  contentType: 'application/json',
});
export const script = (body: string): CorpusRoute => ({ body, contentType: 'text/javascript' });
export const fragment = (body: string): CorpusRoute => ({ body, contentType: 'text/html; charset=utf-8' });

export const doc = (title: string, body: string, head = '', bodyAttributes = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head><body${bodyAttributes ? ` ${bodyAttributes}` : ''}>${body}</body></html>`;

/** A shop's header and navigation: about 300 characters of chrome text. */
export const SHOP_HEADER = `<header class="site-header"><a class="logo" href="/">Northwind Outfitters</a>
<nav aria-label="Main"><ul><li><a href="/new">New arrivals</a></li><li><a href="/women">Women</a></li><li><a href="/men">Men</a></li><li><a href="/kids">Kids</a></li><li><a href="/footwear">Footwear</a></li><li><a href="/camping">Camping gear</a></li><li><a href="/climbing">Climbing</a></li><li><a href="/sale">Sale</a></li><li><a href="/stores">Store locator</a></li><li><a href="/help">Help centre</a></li></ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search products, brands and guides"><button>Search</button></form>
<div class="promo-bar">Free delivery on orders over 60 euros. Free returns within 30 days.</div></header>`;

/** A shop's footer: about 600 characters of chrome text. */
export const SHOP_FOOTER = `<footer class="site-footer"><div class="cols">
<div><h4>Customer service</h4><ul><li><a href="/contact">Contact us</a></li><li><a href="/delivery">Delivery information</a></li><li><a href="/returns">Returns and refunds</a></li><li><a href="/warranty">Warranty claims</a></li><li><a href="/size-guide">Size guide</a></li></ul></div>
<div><h4>About Northwind</h4><ul><li><a href="/story">Our story</a></li><li><a href="/sustainability">Sustainability report</a></li><li><a href="/careers">Careers</a></li><li><a href="/press">Press</a></li><li><a href="/affiliates">Affiliate programme</a></li></ul></div>
<div><h4>Newsletter</h4><p>Sign up for trail reports, early access to sales and ten percent off your first order.</p><form><input type="email" placeholder="Email address"><button>Subscribe</button></form></div></div>
<p class="legal">© 2026 Northwind Outfitters GmbH. All prices include VAT. <a href="/privacy">Privacy policy</a> · <a href="/terms">Terms and conditions</a> · <a href="/imprint">Imprint</a> · <a href="/cookies">Cookie settings</a></p></footer>`;

/** A publication's header and footer (about 500 characters together). */
export const NEWS_HEADER = `<header><div class="masthead"><a href="/">The Harbour Gazette</a><span class="date">Tuesday edition</span></div>
<nav><a href="/local">Local</a> <a href="/business">Business</a> <a href="/politics">Politics</a> <a href="/science">Science</a> <a href="/culture">Culture</a> <a href="/sport">Sport</a> <a href="/opinion">Opinion</a> <a href="/weather">Weather</a> <a href="/subscribe">Subscribe</a> <a href="/login">Sign in</a></nav></header>`;
export const NEWS_FOOTER = `<footer><p>The Harbour Gazette is published by Harbour Media Ltd, 12 Quay Street. Registered in England and Wales, company number 0481236.</p>
<p><a href="/about">About us</a> · <a href="/contact">Contact the newsroom</a> · <a href="/corrections">Corrections</a> · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/advertise">Advertise with us</a></p></footer>`;

export const COOKIE_BANNER = `<div id="cookie-notice" class="cookie-banner" role="dialog"><p>We use cookies and similar technologies to run this site, measure traffic and personalise content. You can accept all cookies or choose which ones to allow in the settings.</p><button id="accept-cookies">Accept all</button><button>Settings</button></div>`;

export const GTAG = `<script async src="https://www.googletagmanager.com/gtag/js?id=G-8XK2P4"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-8XK2P4');</script>`;
export const GTM = `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-PX42ZQ');</script>`;
export const GTM_NOSCRIPT = `<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-PX42ZQ" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>`;
export const FB_PIXEL = `<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window, document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init', '2093847561');fbq('track', 'PageView');</script>
<noscript><img height="1" width="1" style="display:none" src="https://www.facebook.com/tr?id=2093847561&ev=PageView&noscript=1"/></noscript>`;
export const HOTJAR = `<script>(function(h,o,t,j,a,r){h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};h._hjSettings={hjid:3310457,hjsv:6};a=o.getElementsByTagName('head')[0];r=o.createElement('script');r.async=1;r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;a.appendChild(r);})(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>`;
export const PLAUSIBLE = `<script defer data-domain="example.org" src="https://plausible.io/js/script.js"></script>`;
export const MATOMO = `<script>var _paq = window._paq = window._paq || []; _paq.push(['trackPageView']); _paq.push(['enableLinkTracking']); (function() { var u="https://stats.example.org/"; _paq.push(['setTrackerUrl', u+'matomo.php']); _paq.push(['setSiteId', '4']); var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0]; g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s); })();</script>`;
export const ADS = `<script async src="https://securepubads.g.doubleclick.net/tag/js/gpt.js"></script>
<script>window.googletag = window.googletag || {cmd: []}; googletag.cmd.push(function() { googletag.defineSlot('/2231/gazette/article', [[300, 250]], 'div-gpt-ad-mpu').addService(googletag.pubads()); googletag.defineSlot('/2231/gazette/leader', [[728, 90]], 'div-gpt-ad-leader').addService(googletag.pubads()); googletag.enableServices(); });</script>`;
export const INTERCOM = `<script>window.intercomSettings = { api_base: "https://api-iam.intercom.io", app_id: "q8d2kz1w" }; (function(){var w=window;var ic=w.Intercom;if(typeof ic==="function"){ic('update',w.intercomSettings);}else{var d=document;var i=function(){i.c(arguments);};i.q=[];i.c=function(args){i.q.push(args);};w.Intercom=i;var l=function(){var s=d.createElement('script');s.type='text/javascript';s.async=true;s.src='https://widget.intercom.io/widget/q8d2kz1w';var x=d.getElementsByTagName('script')[0];x.parentNode.insertBefore(s,x);};if(document.readyState==='complete'){l();}else{w.addEventListener('load',l,false);}}})();</script>`;
export const ONETRUST = `<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" data-domain-script="7f3e2a10-consent" charset="UTF-8"></script>
<script>function OptanonWrapper() { window.dataLayer.push({ event: 'OneTrustGroupsUpdated' }); }</script>`;

/** A few hundred words of prose around a topic word (for pages that are really server-rendered). */
export function prose(topic: string, paragraphs: number, marker?: string): string {
  const sentences = [
    `The ${topic} has been the subject of careful study by the people who use it every day, and their notes shaped this page.`,
    `Most readers come here to understand how the ${topic} behaves in practice, which is different from what a brochure promises.`,
    `We tested it over several weeks in wet and dry conditions, in the early morning cold and in the heat of the afternoon.`,
    `What follows is a plain summary of what worked, what did not, and what we would change if we started again tomorrow.`,
    `Prices and availability change often, so check the current details before you make a decision based on this article.`,
    `Several readers wrote in with their own experience, and where it differed from ours we mention it in the text below.`,
  ];
  return Array.from({ length: paragraphs }, (_, index) => {
    const body = [0, 1, 2].map((offset) => sentences[(index * 3 + offset) % sentences.length]).join(' ');
    return `<p>${index === 0 && marker ? `${marker}: ` : ''}${body}</p>`;
  }).join('\n');
}
