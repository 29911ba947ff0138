import { decodeBody } from '@quarry/scrape/content';
import type { FetchedPage } from '@quarry/scrape/engine';

import { elementAt, matchingElements, withoutElements } from './html-scan.util';

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;
/** An application root's open tag, its attributes read by ROOT_ID… */
const ROOT_OPEN = /<(div|main|section|body)\b([^>]*)>/gi;
const ROOT_ID =
  /\bid=["']?(root|app|__next|__nuxt|___gatsby|svelte|application|main-app|react-root|vue-app|app-root|spa-root)(?=["'\s]|$)/i;
/** …or an Angular root element with nothing in it. */
const EMPTY_ANGULAR_ROOT = /<(app-root|my-app)\b[^>]*>\s*<\/\1>/i;
const ASKS_FOR_JS =
  /<noscript\b[^>]*>[\s\S]{0,600}?\b(enable|requires?|need|turn on|activate|switch on)\b[\s\S]{0,40}?javascript[\s\S]*?<\/noscript>|<noscript\b[^>]*>[\s\S]{0,600}?javascript\b[\s\S]{0,40}?\b(required|disabled|needed|is off|must be enabled)\b[\s\S]*?<\/noscript>/i;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const SCRIPT_TYPE = /\btype\s*=\s*["']?([^"'\s>]+)/i;
const SCRIPT_SRC = /\bsrc\s*=\s*["']?([^"'\s>]+)/i;
const EXECUTABLE_TYPE = /^(text|application)\/(x-)?(java|ecma)script$|^module$/i;
const JSON_TYPE = /json/i;

/** Third-party scripts that measure, advertise, ask for consent, chat or embed: they never carry a page's content. */
const TRACKER_SRC =
  /googletagmanager|google-analytics|gtag\/js|\/analytics\.js|doubleclick|googlesyndication|adsbygoogle|\/gpt\.js|connect\.facebook|fbevents|hotjar|plausible|matomo|piwik|segment\.(com|io)|mixpanel|amplitude|heap-?analytics|clarity\.ms|intercom|hubspot|hs-scripts|hs-analytics|cookielaw|onetrust|cookiebot|usercentrics|quantcast|consent|recaptcha|hcaptcha|turnstile|maps\.googleapis|js\.stripe|paypal|cloudflareinsights|newrelic|nr-data|sentry|bugsnag|datadog|optimizely|visualwebsiteoptimizer|crazyegg|fullstory|tiktok|licdn|platform\.twitter|platform\.x\.com|pinimg|pinterest|disqus|addthis|sharethis|gravatar|typekit|fonts\.googleapis|polyfill|cdn-cgi\/|beacon/i;
const TRACKER_CODE =
  /\b(dataLayer|gtag\s*\(|ga\s*\(\s*['"](create|send)|_gaq|_paq|fbq\s*\(|_fbq|_hjSettings|analytics\.(load|page|track)\s*\(|clarity\s*\(|_hsq|Intercom\b|intercomSettings|OptanonWrapper|Cookiebot|adsbygoogle|googletag\.|disqus_config|mixpanel\.|amplitude\.|plausible\s*\(|_linkedin_partner|twq\s*\(|ttq\.|pintrk|snaptr|_satellite|utag_data|newrelic|Sentry\.)/;

/** Code that puts content into the document. */
const DOM_WRITE =
  /\.(innerHTML|outerHTML|textContent|innerText)\s*\+?=|insertAdjacent(HTML|Element|Text)\s*\(|\.(appendChild|append|prepend|replaceChildren|replaceWith|before|after)\s*\(|document\.write(ln)?\s*\(|\.html\s*\(|\.load\s*\(\s*['"]|attachShadow\s*\(|customElements\.define\s*\(|\b(render|hydrate|hydrateRoot|createRoot|createApp|mount)\s*\(/;
const ELEMENT_LOOKUP =
  /getElementById\(\s*(['"])([^'"]+)\1\s*\)|querySelector(?:All)?\(\s*(['"])([^'"]+)\3\s*\)|\$\(\s*(['"])([^'"]+)\5\s*\)/g;
const DOCUMENT_WRITE_CONTENT = /document\.write(?:ln)?\(\s*(['"`])(?:\s*<|[^'"`]{24,})/;
const CUSTOM_ELEMENT = /<([a-z][a-z0-9]*-[a-z0-9-]*)\b[^>]*>/gi;
const PLACEHOLDER_CLASS =
  /\bclass\s*=\s*["'][^"']*\b(skeleton[\w-]*|[\w-]*-skeleton|shimmer|placeholder(-glow|-wave)?|content-loader|spinner|loader|[\w-]*-loading|loading|is-loading|nuxt-loading)\b[^"']*["']|\baria-busy\s*=\s*["']true["']/i;
const BINDING_ATTRIBUTE =
  /<[a-z][\w-]*\b[^>]*\s(x-text|x-html|v-text|v-html|ng-bind|ng-bind-html|data-bind|:text)\s*=/gi;
const MUSTACHE = /\{\{[^{}]{1,80}\}\}/g;
const CHROME_TAGS = ['header', 'nav', 'footer', 'aside'];
const CHROME_ATTRIBUTE =
  /\b(role\s*=\s*["']?(banner|navigation|contentinfo|complementary)|(id|class)\s*=\s*["'][^"']*\b(site-header|page-header|site-footer|page-footer|navbar|topbar|masthead|cookie[\w-]*|[\w-]*-cookie|consent[\w-]*|gdpr[\w-]*)\b)/i;
const LOADING_TEXT = /^(loading|please wait|fetching|one moment)[^a-z0-9]{0,12}[a-z ]{0,30}[.…]*$/i;

/** Content text below which a page is a shell when it runs its own scripts. */
const SHELL_TEXT = 150;
/** Content text below which script-filled holes, placeholders or empty components mean the content is missing. */
const THIN_TEXT = 600;

interface ScriptInfo {
  src?: string;
  code: string;
  tracker: boolean;
}

/** Scripts a browser would run: no `type`, a JavaScript MIME type or `module` (not JSON-LD, JSON or templates). */
export function executableScriptCount(html: string): number {
  let count = 0;
  for (const [, attributes] of html.matchAll(SCRIPT_TAG)) {
    const type = SCRIPT_TYPE.exec(attributes ?? '')?.[1];
    if (!type || EXECUTABLE_TYPE.test(type)) count++;
  }
  return count;
}

/** What `staticText` drops, in one pass: comments, raw-text and non-rendered elements, tags, no-break spaces. */
const NOT_TEXT =
  /<!--[\s\S]*?-->|<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>|<[^>]+>|&nbsp;|&#160;/gi;

/** Visible text of an HTML document without running it (scripts, styles, templates, comments dropped). */
export function staticText(html: string): string {
  return html.replace(NOT_TEXT, ' ').replace(/\s+/g, ' ').trim();
}

function scriptsOf(html: string): { executable: ScriptInfo[]; dataText: number } {
  const executable: ScriptInfo[] = [];
  let dataText = 0;
  for (const [, attributes = '', code = ''] of html.matchAll(SCRIPT)) {
    const type = SCRIPT_TYPE.exec(attributes)?.[1];
    if (type && JSON_TYPE.test(type) && !/ld\+json/i.test(type)) {
      dataText += proseIn(code);
      continue;
    }
    if (type && !EXECUTABLE_TYPE.test(type)) continue;
    const src = SCRIPT_SRC.exec(attributes)?.[1];
    const tracker = src
      ? TRACKER_SRC.test(src)
      : TRACKER_CODE.test(code) && !/\.(innerHTML|textContent)\s*=/.test(code);
    // State assigned to a global (`window.__INITIAL_STATE__ = {…}`) is data the page renders from.
    if (!src && /^\s*(window|self)\.__?[\w$]+__?\s*=\s*[{[(]/.test(code)) dataText += proseIn(code);
    executable.push({ src, code, tracker });
  }
  return { executable, dataText };
}

/**
 * Whether the page has an empty application root: `<div id="root">` (or `app`, `__next`…) holding
 * nothing but white space and comments, or an empty `<app-root>`. Read forwards once from the root's
 * open tag: one expression repeating a lazy comment pattern before the end tag backtracked through
 * every way of splitting the comments (40 comments and a letter held the event loop past 100 s).
 */
export function hasEmptyAppRoot(html: string): boolean {
  for (const open of html.matchAll(ROOT_OPEN)) {
    if (!ROOT_ID.test(open[2])) continue;
    let at = (open.index ?? 0) + open[0].length;
    for (;;) {
      while (at < html.length && /\s/.test(html[at])) at += 1;
      if (!html.startsWith('<!--', at)) break;
      // `<!-->` and `<!--->` are empty comments, as a browser reads them.
      if (html.startsWith('>', at + 4)) at += 5;
      else if (html.startsWith('->', at + 4)) at += 6;
      else {
        const end = html.indexOf('-->', at + 4);
        if (end < 0) break;
        at = end + 3;
      }
    }
    const close = `</${open[1]}>`;
    if (html.slice(at, at + close.length).toLowerCase() === close.toLowerCase()) return true;
  }
  return EMPTY_ANGULAR_ROOT.test(html);
}

/** Characters of prose inside string literals (sentences, not identifiers or URLs). */
function proseIn(code: string): number {
  let total = 0;
  for (const [, text] of code.matchAll(/"((?:[^"\\]|\\.){20,})"/g))
    if (/[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}/i.test(text ?? '') && !/^https?:/.test(text ?? ''))
      total += text.length;
  return total;
}

/** The page's text outside its chrome (header, navigation, footer, sidebars, cookie notices). */
function contentTextOf(body: string): string {
  return staticText(
    withoutElements(body, (tag, openTag) => CHROME_TAGS.includes(tag) || CHROME_ATTRIBUTE.test(openTag)),
  );
}

/** Nothing to read: no text, or only a loading notice. */
function isEmptyText(text: string): boolean {
  return text.replace(/[^\p{L}\p{N}]+/gu, '').length < 3 || LOADING_TEXT.test(text);
}

/** Elements whose content is never the page's text (controls, media, links). */
const NOT_CONTAINERS = new Set([
  'a',
  'button',
  'input',
  'select',
  'option',
  'textarea',
  'img',
  'iframe',
  'canvas',
  'video',
  'audio',
  'svg',
  'form',
  'label',
]);

/**
 * Elements looked at per page: each look may read to the end of the page (an element nothing
 * closes), so a page's count of lookups or components must not multiply its length (8,000
 * `getElementById` calls over a 550 kB page took 7.1 s, 8,000 nested components 5.4 s). A reason
 * names three at most.
 */
const MAX_SELECTORS = 8;
const MAX_COMPONENT_NAMES = 8;
const INSTANCES_LOOKED_AT = 4;
const NAMED_IN_REASON = 3;

/** Elements the page's own inline code looks up and writes into, which the server sent empty. */
function scriptFilledHoles(body: string, scripts: readonly ScriptInfo[]): string[] {
  const selectors = new Set<string>();
  for (const { code } of scripts.filter((entry) => !entry.src && !entry.tracker)) {
    if (!DOM_WRITE.test(code)) continue;
    for (const match of code.matchAll(ELEMENT_LOOKUP)) {
      selectors.add(match[2] !== undefined ? `#${match[2]}` : (match[4] ?? match[6] ?? ''));
      if (selectors.size >= MAX_SELECTORS) break;
    }
    if (selectors.size >= MAX_SELECTORS) break;
  }
  const holes: string[] = [];
  for (const selector of selectors) {
    const elements = matchingElements(body, selector, INSTANCES_LOOKED_AT);
    if (
      elements.some((element) => !NOT_CONTAINERS.has(element.tag) && isEmptyText(staticText(element.inner)))
    )
      holes.push(selector);
    if (holes.length >= NAMED_IN_REASON) break;
  }
  return holes;
}

function emptyCustomElements(body: string): string[] {
  const empty = new Set<string>();
  const looked = new Map<string, number>();
  for (const match of body.matchAll(CUSTOM_ELEMENT)) {
    const name = match[1].toLowerCase();
    const seen = looked.get(name) ?? 0;
    if (empty.has(name) || seen >= INSTANCES_LOOKED_AT) continue;
    if (seen === 0 && looked.size >= MAX_COMPONENT_NAMES) break;
    looked.set(name, seen + 1);
    const element = elementAt(body, match.index ?? 0);
    if (element && isEmptyText(staticText(element.inner))) empty.add(name);
    if (empty.size >= NAMED_IN_REASON) break;
  }
  return [...empty];
}

/** Text blocks of a few words: a sentence, a menu line, a list entry. */
const TEXT_BLOCK = /<(p|li|dd|td)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const WORDS_OF_A_LINE = 3;
/** An element with attributes and nothing inside it… */
const EMPTY_ELEMENT = /<[a-z][\w-]*\s([^>]*)>\s*<\/[a-z][\w-]*\s*>/gi;
/** …that a framework hydrates (islands, components mounted by data attribute). */
const HYDRATION_ATTRIBUTE =
  /\bdata-(?:island|component|react-class|reactroot|hydrate|widget|mount|props|controller)\b/i;

/**
 * Whether the markup has an empty element a framework hydrates. Each tag is read once: one expression
 * requiring the attribute between two `[^>]*` read a tag once per `data-` in it (20,000 `data-island`
 * attributes: 3.3 s).
 */
export function hasHydrationSlot(markup: string): boolean {
  for (const [, attributes] of markup.matchAll(EMPTY_ELEMENT))
    if (HYDRATION_ATTRIBUTE.test(attributes)) return true;
  return false;
}

/**
 * A short page that is whole without JavaScript: a title heading, then a sentence or several lines of
 * text, and nothing outside the page chrome that the page's scripts fill, that loads or that binds a
 * template (an order confirmation, a short menu beside a basket its script fills).
 */
function wholeShortPage(body: string, own: readonly ScriptInfo[]): boolean {
  const content = withoutElements(
    body,
    (tag, openTag) => CHROME_TAGS.includes(tag) || CHROME_ATTRIBUTE.test(openTag),
  ).replace(/<(script|template)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  if (hasHydrationSlot(content)) return false;
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(content);
  if (!heading || isEmptyText(staticText(heading[1]))) return false;
  const after = content.slice(heading.index + heading[0].length);
  let lines = 0;
  let sentence = false;
  for (const [, , inner] of after.matchAll(TEXT_BLOCK)) {
    const text = staticText(inner).trim();
    if ((text.match(/[\p{L}\p{N}]+/gu) ?? []).length < WORDS_OF_A_LINE) continue;
    lines += 1;
    if (/[.!?]$/.test(text)) sentence = true;
  }
  if (!sentence && lines < 2) return false;
  return (
    !staticText(content).includes('{{') &&
    !PLACEHOLDER_CLASS.test(content) &&
    scriptFilledHoles(content, own).length === 0 &&
    emptyCustomElements(content).length === 0
  );
}

function bodyOf(html: string): string {
  const start = html.search(/<body\b/i);
  return start >= 0 ? html.slice(start) : html.replace(/<head\b[\s\S]*?<\/head\s*>/i, '');
}

/**
 * Why a page fetched over HTTP needs JavaScript to show its content, or undefined when it does
 * not. The signals, from the HTML alone: an empty application root, a `<noscript>` asking for
 * JavaScript, almost no content text outside the page chrome while the page runs its own scripts,
 * elements the page's code fills that the server sent empty, skeleton/loading placeholders, template
 * bindings (`{{ … }}`, `x-text`), empty custom elements, `document.write` of content, and content
 * carried in a JSON state blob rather than in the markup. Analytics, ads, consent, chat and embed
 * scripts do not count as the page's own.
 */
export function needsJavaScript(page: FetchedPage): string | undefined {
  if (page.status >= 300 || !HTML_TYPE.test(page.contentType ?? '')) return undefined;
  const html = page.text ?? decodeBody(page.body, page.contentType).text;
  return javaScriptNeedOf(html);
}

/** More openers that nothing closes than this, and the page is not read for JavaScript (see `unterminated`). */
const MAX_UNTERMINATED = 64;
const BLOCK_CLOSE = /<\/(script|style|noscript|template|svg|head|title|h1|p|li|dd|td|pre|code)\b/gi;
const BLOCK_OPEN = /<(script|style|noscript|template|svg|head|title|h1|p|li|dd|td|pre|code)\b/gi;

/**
 * How many openers the page's expressions would each search to the end of the page for: comments
 * after the last `-->`, blocks (`<script`, `<p`…) after the last end tag of their kind, and `<` after
 * the last `>`. One linear pass; the expressions below cost that count × the page (20,000 unclosed
 * `<script>` tags: 1.1 s, 200,000: minutes of the worker's event loop).
 */
function unterminated(html: string): number {
  const lastClose = new Map<string, number>();
  for (const match of html.matchAll(BLOCK_CLOSE)) lastClose.set(match[1].toLowerCase(), match.index);
  let count = 0;
  for (const match of html.matchAll(BLOCK_OPEN))
    if (match.index > (lastClose.get(match[1].toLowerCase()) ?? -1)) count += 1;
  const lastComment = html.lastIndexOf('-->');
  for (let at = html.indexOf('<!--', lastComment + 1); at >= 0; at = html.indexOf('<!--', at + 4)) count += 1;
  for (let at = html.indexOf('<', html.lastIndexOf('>') + 1); at >= 0; at = html.indexOf('<', at + 1))
    count += 1;
  return count;
}

/**
 * Characters the tag expressions may read per character of the page, beyond which it is not read
 * for JavaScript (the 1,445 pages of the two content datasets read at most 4.1 per character).
 */
const MAX_TAG_SCAN_PER_CHAR = 12;

/**
 * How many characters the expressions' tag patterns (`<noscript\b[^>]*>`, `<div\b[^>]*\bid=…`) read
 * from every `<` to the `>` that ends it: the sum of the distances. A page's tags are short, so this
 * is below its length; thousands of `<` before one `>` (`<noscript <noscript … >`) make every pattern
 * read the run once per `<` (20,000 took 9.9 s of the worker's event loop). One pass from the end.
 */
function tagScanCost(html: string): number {
  let total = 0;
  let nextClose = html.length;
  for (let at = html.length - 1; at >= 0; at -= 1) {
    const code = html.charCodeAt(at);
    if (code === 62 /* > */) nextClose = at;
    else if (code === 60 /* < */) total += nextClose - at;
  }
  return total;
}

/** `needsJavaScript` on an HTML string. */
export function javaScriptNeedOf(html: string): string | undefined {
  // Markup left open dozens of times (end tags of p, li, dd and td are optional, so an old page that
  // never writes them is among these), or thousands of tags sharing one `>`, is read as it is
  // served: kept on the HTTP engine.
  if (unterminated(html) > MAX_UNTERMINATED) return undefined;
  if (tagScanCost(html) > MAX_TAG_SCAN_PER_CHAR * html.length + 100_000) return undefined;
  const { executable, dataText } = scriptsOf(html);
  if (executable.length === 0) return undefined;
  const own = executable.filter((entry) => !entry.tracker);
  const appRoot = hasEmptyAppRoot(html);
  const asksForJs = ASKS_FOR_JS.test(html);
  // The content text costs whole-document passes: pages that only run trackers are done without it.
  if (own.length === 0 && !appRoot && !asksForJs) return undefined;
  const body = bodyOf(html);
  const content = contentTextOf(body);
  const contentLength = content.length;

  if (appRoot && contentLength < 2_000)
    return 'the page is an empty application shell rendered by JavaScript';
  if (asksForJs && contentLength < 1_000) return 'the page asks for JavaScript';
  if (own.length === 0) return undefined;
  if (contentLength < SHELL_TEXT && !serverRendered(html)) {
    if (!wholeShortPage(body, own)) return 'the page has almost no text without JavaScript';
    return undefined;
  }

  const inline = own.filter((entry) => !entry.src).map((entry) => entry.code);
  if (contentLength < THIN_TEXT) {
    const holes = scriptFilledHoles(body, own);
    if (holes.length)
      return `the page's scripts fill elements the server sent empty (${holes.slice(0, 3).join(', ')})`;
    if (PLACEHOLDER_CLASS.test(body)) return 'loading placeholders stand in for the content';
    const components = emptyCustomElements(body);
    if (
      components.length &&
      (inline.some((code) => /customElements\.define/.test(code)) || own.some((entry) => !!entry.src))
    )
      return `the content is rendered by custom elements (${components.slice(0, 3).join(', ')})`;
  }
  if (contentLength < THIN_TEXT * 2) {
    const bound = [...body.matchAll(BINDING_ATTRIBUTE)].length;
    const mustaches = content.includes('{{')
      ? (staticText(body.replace(/<(pre|code)\b[\s\S]*?<\/\1\s*>/gi, ' ')).match(MUSTACHE) ?? []).length
      : 0;
    if (bound >= 2 || mustaches >= 2) return 'template bindings are filled in by JavaScript';
  }
  if (contentLength < 1_000 && inline.some((code) => DOCUMENT_WRITE_CONTENT.test(code)))
    return 'the content is written by document.write';
  if (dataText > 400 && dataText > 2 * contentLength + 200)
    return 'the content is in a JSON state blob rendered by JavaScript';
  return undefined;
}

/** Framework markers of server-side rendering: the text present is the content, not a shell. */
function serverRendered(html: string): boolean {
  return /\bdata-server-rendered\s*=\s*["']?true|\bserverRendered\s*:\s*true|\bdata-reactroot\b|\bdata-n-head-ssr\b|\bdata-sveltekit-hydrate|\bng-server-context\b/i.test(
    html,
  );
}
