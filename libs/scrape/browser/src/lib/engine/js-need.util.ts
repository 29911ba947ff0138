import type { FetchedPage } from '@quarry/scrape/engine';
import { decodeBody } from '@quarry/scrape/content';

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;
const EMPTY_APP_ROOT =
  /<(div|main|section)\b[^>]*\bid=["']?(root|app|__next|__nuxt|___gatsby|svelte|application|main-app)["']?[^>]*>\s*(<!--[\s\S]*?-->\s*)*<\/\1>|<(app-root|my-app)\b[^>]*>\s*<\/\4>/i;
const ASKS_FOR_JS =
  /<noscript\b[^>]*>[\s\S]{0,600}?\b(enable|requires?|need|turn on|activate)\b[\s\S]{0,40}?javascript[\s\S]*?<\/noscript>|<noscript\b[^>]*>[\s\S]{0,600}?javascript\b[\s\S]{0,40}?\b(required|disabled|needed)\b[\s\S]*?<\/noscript>/i;

const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const SCRIPT_TYPE = /\btype\s*=\s*["']?([^"'\s>]+)/i;
const EXECUTABLE_TYPE = /^(text|application)\/(x-)?(java|ecma)script$|^module$/i;

/** Scripts a browser would run: no `type`, a JavaScript MIME type or `module` (not JSON-LD, JSON or templates). */
export function executableScriptCount(html: string): number {
  let count = 0;
  for (const [, attributes] of html.matchAll(SCRIPT_TAG)) {
    const type = SCRIPT_TYPE.exec(attributes ?? '')?.[1];
    if (!type || EXECUTABLE_TYPE.test(type)) count++;
  }
  return count;
}

/** Visible text of an HTML document without running it (scripts, styles, templates, comments dropped). */
export function staticText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Why a page fetched over HTTP needs JavaScript to show its content, or undefined when it does
 * not: an empty application root (React/Vue/Next/Angular shells), a `<noscript>` asking for
 * JavaScript, or scripts with almost no text around them.
 */
export function needsJavaScript(page: FetchedPage): string | undefined {
  if (page.status >= 300 || !HTML_TYPE.test(page.contentType ?? '')) return undefined;
  const html = page.text ?? decodeBody(page.body, page.contentType).text;
  const text = staticText(html);
  if (executableScriptCount(html) === 0) return undefined;
  if (EMPTY_APP_ROOT.test(html) && text.length < 2_000)
    return 'the page is an empty application shell rendered by JavaScript';
  if (ASKS_FOR_JS.test(html) && text.length < 2_000) return 'the page asks for JavaScript';
  if (text.length < 250) return 'the page has almost no text without JavaScript';
  return undefined;
}
