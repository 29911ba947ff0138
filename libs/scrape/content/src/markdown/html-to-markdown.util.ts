import type { DomElement, DomNode } from '../dom/dom.types';
import { isElement, isText, tagOf } from '../dom/dom.types';
import { query } from '../dom/query.util';
import { codeLanguage } from './code-language.util';
import { codeText } from './code-text.util';
import {
  backtickFence,
  bracketText,
  escapeMarkdownText,
  inlineCode,
  markdownUrl,
} from './markdown-escape.util';
import { MarkdownWriter } from './markdown-writer';
import { renderTable } from './table-to-markdown.util';

export interface MarkdownOptions {
  /** Replace `data:` image URLs by a placeholder (alt text kept). */
  removeBase64Images: boolean;
}

export const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'input',
  'select',
  'option',
  'textarea',
  'video',
  'audio',
  'source',
  'track',
  'map',
  'dialog',
  'frame',
  'frameset',
  'math',
  'datalist',
  'param',
  'slot',
]);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'body',
  'center',
  'details',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'main',
  'menu',
  'nav',
  'p',
  'section',
  'summary',
  'caption',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'search',
  'picture',
]);
const BLOCK_ROLES = new Set(['tab', 'tabpanel', 'listitem', 'row', 'paragraph']);

function ariaLevel(el: DomElement): number {
  const level = Number.parseInt(el.getAttribute('aria-level') ?? '2', 10);
  return Number.isFinite(level) ? Math.min(6, Math.max(1, level)) : 2;
}

const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const EMPHASIS: Readonly<Record<string, string>> = {
  strong: '**',
  b: '**',
  em: '*',
  i: '*',
  cite: '*',
  dfn: '*',
  del: '~~',
  s: '~~',
  strike: '~~',
};
const INLINE_CODE = new Set(['code', 'kbd', 'samp', 'tt', 'var']);
const SKIP_LINK =
  /^(?:skip|jump)\s+(?:to|navigation)|^skip\s+(?:main\s+)?(?:content|nav)|^(?:go|back)\s+to\s+(?:main\s+)?content/i;

/**
 * A heading's permalink ("¶", "#", "§", an icon-font glyph) or another in-page anchor that shows only a
 * symbol: no words to keep, and `[¶](#section)` after every heading is noise.
 */
function isPermalink(el: DomElement, raw: string): boolean {
  const text = raw.trim();
  return text.length <= 2 && !/[\p{L}\p{N}]/u.test(text) && query(el, 'img') === null;
}

interface Context {
  inLink: boolean;
  listDepth: number;
}

/** GitHub-flavoured markdown for an element's content. */
export function htmlToMarkdown(root: DomNode, options: MarkdownOptions): string {
  const renderer = new Renderer(options);
  const writer = new MarkdownWriter();
  renderer.children(root, writer, { inLink: false, listDepth: 0 });
  return writer.toString();
}

class Renderer {
  constructor(private readonly options: MarkdownOptions) {}

  children(node: DomNode, out: MarkdownWriter, ctx: Context): void {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (isText(child)) out.text(child.data, escapeMarkdownText);
      else if (isElement(child)) this.element(child, out, ctx);
    }
  }

  /** Renders into a fresh writer (for content that must become one piece: link text, cells, headings). */
  inline(node: DomNode, ctx: Context): string {
    const sub = new MarkdownWriter();
    this.children(node, sub, ctx);
    return sub.toString();
  }

  private element(el: DomElement, out: MarkdownWriter, ctx: Context): void {
    const tag = tagOf(el);
    if (SKIPPED.has(tag)) return;
    const heading = HEADINGS[tag];
    if (heading !== undefined) return this.heading(el, heading, out, ctx);
    const marker = EMPHASIS[tag];
    if (marker !== undefined) return this.emphasis(el, marker, out, ctx);
    if (INLINE_CODE.has(tag)) return this.inlineCode(el, out);
    switch (tag) {
      case 'a':
        return this.link(el, out, ctx);
      case 'img':
        return this.image(el, out);
      case 'br':
        return out.hardBreak();
      case 'hr':
        out.block(2);
        out.write('---');
        return out.block(2);
      case 'pre':
        return this.codeBlock(el, out);
      case 'ul':
      case 'ol':
        return this.list(el, tag === 'ol', out, ctx);
      case 'li':
        return this.listItem(el, '- ', out, ctx);
      case 'blockquote':
        return this.blockquote(el, out, ctx);
      case 'table':
        return this.table(el, out, ctx);
      default:
        break;
    }
    const role = el.getAttribute('role');
    if (role === 'heading') return this.heading(el, ariaLevel(el), out, ctx);
    // Buttons and tabs sit side by side only through layout; as inline text their labels would run together.
    if ((BLOCKS.has(tag) || tag === 'button' || (role !== null && BLOCK_ROLES.has(role))) && !ctx.inLink) {
      out.block(2);
      this.children(el, out, ctx);
      out.block(2);
      return;
    }
    this.children(el, out, ctx);
  }

  private heading(el: DomElement, level: number, out: MarkdownWriter, ctx: Context): void {
    const text = this.inline(el, ctx).replace(/\s+/g, ' ').trim();
    if (!text) return;
    if (ctx.inLink) {
      out.space();
      out.write(text);
      out.space();
      return;
    }
    out.block(2);
    out.write(`${'#'.repeat(level)} ${text}`);
    out.block(2);
  }

  private emphasis(el: DomElement, marker: string, out: MarkdownWriter, ctx: Context): void {
    const raw = this.inline(el, ctx);
    const text = raw.trim();
    if (!text) {
      if (/\s/.test(el.textContent ?? '')) out.space();
      return;
    }
    if (/^\s/.test(el.textContent ?? '')) out.space();
    if (text.includes('\n') || text.startsWith(marker[0]) || text.endsWith(marker[0])) out.write(text);
    else out.write(`${marker}${text}${marker}`);
    if (/\s$/.test(el.textContent ?? '')) out.space();
  }

  private inlineCode(el: DomElement, out: MarkdownWriter): void {
    const raw = (el.textContent ?? '').replace(/[ \t\n\r\f\u00a0]+/g, ' ');
    const code = raw.trim();
    if (raw.startsWith(' ')) out.space();
    if (code) out.write(inlineCode(code));
    if (raw.endsWith(' ') && code) out.space();
  }

  private link(el: DomElement, out: MarkdownWriter, ctx: Context): void {
    const href = (el.getAttribute('href') ?? '').trim();
    const raw = el.textContent ?? '';
    if (href.includes('#') && (SKIP_LINK.test(raw.trim()) || isPermalink(el, raw))) return;
    const text = this.inline(el, { ...ctx, inLink: true })
      .replace(/\s+/g, ' ')
      .trim();
    if (/^\s/.test(raw)) out.space();
    if (text) {
      const usable = href !== '' && !/^(?:javascript|vbscript|data):/i.test(href) && !ctx.inLink;
      out.write(usable ? `[${text}](${markdownUrl(href)})` : text);
    }
    if (/\s$/.test(raw)) out.space();
  }

  private image(el: DomElement, out: MarkdownWriter): void {
    const src = (el.getAttribute('src') ?? '').trim();
    if (!src) return;
    const alt = bracketText(el.getAttribute('alt') ?? '');
    const url =
      /^data:/i.test(src) && this.options.removeBase64Images ? BASE64_IMAGE_PLACEHOLDER : markdownUrl(src);
    out.write(`![${alt}](${url})`);
  }

  private codeBlock(el: DomElement, out: MarkdownWriter): void {
    const code = codeText(el);
    if (!code.trim()) return;
    const fence = backtickFence(code, 3);
    out.block(2);
    out.write(`${fence}${codeLanguage(el) ?? ''}\n${code}\n${fence}`);
    out.block(2);
  }

  private list(el: DomElement, ordered: boolean, out: MarkdownWriter, ctx: Context): void {
    out.block(ctx.listDepth > 0 ? 1 : 2);
    const start = Number.parseInt(el.getAttribute('start') ?? '1', 10);
    let n = Number.isFinite(start) ? start : 1;
    const inner = { ...ctx, listDepth: ctx.listDepth + 1 };
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (isElement(child) && tagOf(child) === 'li') {
        this.listItem(child, ordered ? `${n++}. ` : '- ', out, inner);
      } else if (isElement(child)) {
        this.element(child, out, inner);
      } else if (isText(child)) {
        out.text(child.data, escapeMarkdownText);
      }
    }
    out.block(ctx.listDepth > 0 ? 1 : 2);
  }

  private listItem(el: DomElement, marker: string, out: MarkdownWriter, ctx: Context): void {
    if (ctx.inLink) return this.children(el, out, ctx);
    out.block(1);
    out.pushPrefix(' '.repeat(marker.length), marker);
    this.children(el, out, ctx);
    out.popPrefix();
    out.block(1);
  }

  private blockquote(el: DomElement, out: MarkdownWriter, ctx: Context): void {
    if (ctx.inLink) return this.children(el, out, ctx);
    out.block(2);
    out.pushPrefix('> ');
    this.children(el, out, ctx);
    out.popPrefix();
    out.block(2);
  }

  private table(el: DomElement, out: MarkdownWriter, ctx: Context): void {
    if (ctx.inLink) return this.children(el, out, ctx);
    const rendered = renderTable(el, (cell) => this.inline(cell, ctx));
    if (rendered === undefined) {
      out.block(2);
      this.children(el, out, ctx);
      out.block(2);
      return;
    }
    out.block(2);
    out.write(rendered);
    out.block(2);
  }
}
