import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
// turndown-plugin-gfm ships no types.
const { gfm } = require('turndown-plugin-gfm') as { gfm: TurndownService.Plugin };

function newTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  service.use(gfm);
  return service;
}

const turndown = newTurndown();
const quietConsole = new VirtualConsole();

/** The naive pipeline: jsdom, @mozilla/readability, turndown + GFM. */
export function jsdomReadability(html: string, url: string): string {
  const dom = new JSDOM(html, { url, virtualConsole: quietConsole });
  try {
    const article = new Readability(dom.window.document).parse();
    return article?.content ? turndown.turndown(article.content) : '';
  } finally {
    dom.window.close();
  }
}

/** turndown of the whole `<body>` (jsdom): what a caller falls back to when Readability finds nothing. */
export function jsdomWholeBody(html: string, url: string): string {
  const dom = new JSDOM(html, { url, virtualConsole: quietConsole });
  try {
    const body = dom.window.document.body;
    for (const el of Array.from(body.querySelectorAll('script, style, noscript, template'))) el.remove();
    return turndown.turndown(body.innerHTML);
  } finally {
    dom.window.close();
  }
}

/** The same pipeline on linkedom's faster, less complete DOM. */
export function linkedomReadability(html: string): string {
  const { document } = parseHTML(html);
  try {
    // Readability is typed against the DOM lib's Document; linkedom's is structurally close enough.
    const article = new Readability(document as unknown as Document).parse();
    return article?.content ? turndown.turndown(article.content) : '';
  } catch {
    // Readability throws on documents linkedom parsed without a body; the naive pipeline gets nothing.
    return '';
  }
}
