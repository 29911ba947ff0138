/**
 * Just enough HTML structure for the JavaScript detector, without building a DOM: balanced
 * elements by counting same-name tags, simple selectors, and removal of subtrees. It runs on the
 * worker's event loop for every HTML page fetched over HTTP, so it stays linear and allocation-light.
 */

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'template']);
const OPEN_TAG = /<([a-zA-Z][\w-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/y;

export interface ScannedElement {
  tag: string;
  openTag: string;
  /** Offset of `<` of the opening tag. */
  start: number;
  /** Offset just after the closing tag (or the opening tag of a void element). */
  end: number;
  inner: string;
}

/** The element whose opening tag starts at `index` (unclosed elements run to the end). */
export function elementAt(html: string, index: number): ScannedElement | undefined {
  OPEN_TAG.lastIndex = index;
  const open = OPEN_TAG.exec(html);
  if (!open) return undefined;
  const tag = open[1].toLowerCase();
  const afterOpen = index + open[0].length;
  if (VOID.has(tag) || open[0].endsWith('/>'))
    return { tag, openTag: open[0], start: index, end: afterOpen, inner: '' };
  const pattern = RAW_TEXT.has(tag)
    ? new RegExp(`</${tag}\\s*>`, 'gi')
    : new RegExp(`<(/?)${tag.replace(/[-]/g, '\\-')}\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, 'gi');
  pattern.lastIndex = afterOpen;
  let depth = 1;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    if (RAW_TEXT.has(tag) || match[1] === '/') depth -= 1;
    else if (!match[0].endsWith('/>')) depth += 1;
    if (depth === 0)
      return {
        tag,
        openTag: open[0],
        start: index,
        end: match.index + match[0].length,
        inner: html.slice(afterOpen, match.index),
      };
  }
  return { tag, openTag: open[0], start: index, end: html.length, inner: html.slice(afterOpen) };
}

/** `html` without the elements (and their subtrees) for which `drop(tag, openTag)` holds. */
export function withoutElements(html: string, drop: (tag: string, openTag: string) => boolean): string {
  const parts: string[] = [];
  let cursor = 0;
  const tags = /<([a-zA-Z][\w-]*)\b/g;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    const tag = match[1].toLowerCase();
    if (tag === 'script' || tag === 'style') {
      // Skip raw text: a "<header" inside a script is not an element.
      const element = elementAt(html, match.index);
      if (element) tags.lastIndex = Math.max(tags.lastIndex, element.end);
      continue;
    }
    const close = html.indexOf('>', match.index);
    if (close < 0) break;
    const openTag = html.slice(match.index, close + 1);
    if (!drop(tag, openTag)) continue;
    const element = elementAt(html, match.index);
    if (!element) continue;
    parts.push(html.slice(cursor, element.start), ' ');
    cursor = element.end;
    tags.lastIndex = element.end;
  }
  parts.push(html.slice(cursor));
  return parts.join('');
}

/** Elements of `html` matching the last compound of a simple selector (`#id`, `.class`, `tag`, `[attr]`, `tag.class`). */
export function matchingElements(html: string, selector: string, limit = 20): ScannedElement[] {
  const compound =
    selector
      .trim()
      .split(/[\s>+~]+/)
      .pop() ?? '';
  const parsed = /^([a-zA-Z][\w-]*)?((?:[#.][\w-]+|\[[^\]]+\])*)$/.exec(compound);
  if (!parsed || (!parsed[1] && !parsed[2])) return [];
  const tag = parsed[1]?.toLowerCase();
  const tests: ((openTag: string) => boolean)[] = [];
  for (const [part] of (parsed[2] ?? '').matchAll(/[#.][\w-]+|\[[^\]]+\]/g)) {
    if (part.startsWith('#')) tests.push(attributeTest('id', part.slice(1), false));
    else if (part.startsWith('.')) tests.push(attributeTest('class', part.slice(1), true));
    else {
      const [name, value] = part.slice(1, -1).split('=');
      tests.push(
        value === undefined
          ? (openTag) => new RegExp(`\\s${escape(name.trim())}(\\s*=|[\\s>/])`, 'i').test(openTag)
          : attributeTest(name.trim(), value.replace(/^["']|["']$/g, ''), false),
      );
    }
  }
  const found: ScannedElement[] = [];
  const tags = /<([a-zA-Z][\w-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>/g;
  for (const match of html.matchAll(tags)) {
    if (tag && match[1].toLowerCase() !== tag) continue;
    if (!tests.every((test) => test(match[0]))) continue;
    const element = elementAt(html, match.index ?? 0);
    if (element) found.push(element);
    if (found.length >= limit) break;
  }
  return found;
}

function attributeTest(name: string, value: string, token: boolean): (openTag: string) => boolean {
  const pattern = token
    ? new RegExp(`\\s${escape(name)}\\s*=\\s*(["'])(?:[^"']*\\s)?${escape(value)}(?:\\s[^"']*)?\\1`, 'i')
    : new RegExp(`\\s${escape(name)}\\s*=\\s*(["']?)${escape(value)}\\1(?=[\\s>/])`, 'i');
  return (openTag) => pattern.test(openTag);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
