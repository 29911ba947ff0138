import { Lexer, type Token, type Tokens } from 'marked';
import { type ComponentChild, type ComponentChildren, h } from 'preact';

/**
 * Markdown to Preact elements, never to an HTML string: raw HTML in a document is shown as the text
 * it is, links keep only http(s) and mailto targets, and images are shown as links to their source
 * (a scraped page's images are not fetched by the console: the CSP allows this origin only).
 */
export function renderMarkdown(markdown: string): ComponentChild {
  return h('div', { class: 'markdown' }, blocks(new Lexer({ gfm: true }).lex(markdown)));
}

/** http(s) and mailto URLs only; anything else (javascript:, data:, relative) is not linked. */
export function safeUrl(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  '#39': "'",
};

/** The few character references markdown text keeps from HTML (&amp;, &#8217;, &#x2014;…). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (match, name: string) => {
    if (name[0] === '#' && name !== '#39') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return ENTITIES[name.toLowerCase()] ?? match;
  });
}

function blocks(tokens: Token[]): ComponentChildren[] {
  return tokens.map((token) => block(token));
}

function block(token: Token): ComponentChildren {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      return h(`h${Math.min(6, Math.max(1, heading.depth))}` as 'h1', null, inline(heading.tokens));
    }
    case 'paragraph':
      return h('p', null, inline((token as Tokens.Paragraph).tokens));
    case 'code': {
      const code = token as Tokens.Code;
      return h('pre', null, h('code', code.lang ? { 'data-lang': code.lang } : null, code.text));
    }
    case 'blockquote':
      return h('blockquote', null, blocks((token as Tokens.Blockquote).tokens));
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item) =>
        h(
          'li',
          null,
          item.task
            ? h('input', {
                type: 'checkbox',
                checked: !!item.checked,
                disabled: true,
                'aria-label': item.checked ? 'done' : 'not done',
              })
            : null,
          listItem(item),
        ),
      );
      return list.ordered
        ? h('ol', typeof list.start === 'number' && list.start !== 1 ? { start: list.start } : null, items)
        : h('ul', null, items);
    }
    case 'table': {
      const table = token as Tokens.Table;
      return h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          null,
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              table.header.map((cell) => h('th', { scope: 'col' }, inline(cell.tokens))),
            ),
          ),
          h(
            'tbody',
            null,
            table.rows.map((row) =>
              h(
                'tr',
                null,
                row.map((cell) => h('td', null, inline(cell.tokens))),
              ),
            ),
          ),
        ),
      );
    }
    case 'hr':
      return h('hr', null);
    case 'html':
      return h('pre', { class: 'raw-html' }, (token as Tokens.HTML).text);
    case 'text': {
      const text = token as Tokens.Text;
      return h('p', null, text.tokens ? inline(text.tokens) : decodeEntities(text.text));
    }
    default:
      return null; // space, def
  }
}

/** A list item: loose items hold paragraphs, tight ones inline text. */
function listItem(item: Tokens.ListItem): ComponentChildren {
  return item.tokens.map((token) =>
    token.type === 'text' ? inline((token as Tokens.Text).tokens ?? [token]) : block(token),
  );
}

function inline(tokens: Token[] | undefined): ComponentChildren[] {
  return (tokens ?? []).map((token) => span(token));
}

function span(token: Token): ComponentChildren {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decodeEntities(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'strong':
      return h('strong', null, inline((token as Tokens.Strong).tokens));
    case 'em':
      return h('em', null, inline((token as Tokens.Em).tokens));
    case 'del':
      return h('del', null, inline((token as Tokens.Del).tokens));
    case 'codespan':
      return h('code', null, decodeEntities((token as Tokens.Codespan).text));
    case 'br':
      return h('br', null);
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeUrl(link.href);
      const children = inline(link.tokens);
      return href
        ? h(
            'a',
            { href, rel: 'noopener noreferrer nofollow', target: '_blank', title: link.title ?? undefined },
            children,
          )
        : h('span', { class: 'unsafe-link' }, children);
    }
    case 'image': {
      const image = token as Tokens.Image;
      const href = safeUrl(image.href);
      const label = `Image: ${decodeEntities(image.text) || 'no description'}`;
      return href
        ? h('a', { href, class: 'image-link', rel: 'noopener noreferrer nofollow', target: '_blank' }, label)
        : h('span', { class: 'image-link' }, label);
    }
    case 'html':
      return h('code', { class: 'raw-html' }, (token as Tokens.HTML).text);
    default:
      return 'raw' in token ? String(token.raw) : null;
  }
}
