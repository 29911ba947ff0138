import { sentences, terms } from './tokens.util';

/** A readable unit of a markdown page: a paragraph, list item group, table row or heading-led block. */
export interface Passage {
  index: number;
  /** The markdown of the passage as it appears on the page (quoted verbatim by highlights). */
  markdown: string;
  /** Plain text of the passage. */
  text: string;
  /** Nearest heading above the passage. */
  heading: string;
  kind: 'paragraph' | 'list' | 'table' | 'heading' | 'quote' | 'code';
  terms: string[];
  /** Share of the passage's characters that are link text. */
  linkDensity: number;
}

const LINK = /\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g;

/**
 * Readable text of markdown: links become their text, images, heading/list/quote markers, emphasis
 * and code ticks go, but words keep their own characters (`QUARRY_API_URL` stays as written).
 */
export function readableText(markdown: string): string {
  return markdown
    .replace(/^\s*(```|~~~).*$/gm, '')
    .replace(/!\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '')
    .replace(LINK, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[\s(])[*_](?=\S)([^*_\n]*?\S)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/[ \t]+/g, ' ');
}

function linkDensityOf(markdown: string): number {
  const text = readableText(markdown).replace(/\s+/g, ' ').trim();
  if (!text) return 1;
  let linked = 0;
  for (const match of markdown.matchAll(LINK)) linked += match[1].trim().length;
  return Math.min(1, linked / text.length);
}

function kindOf(block: string): Passage['kind'] {
  const first = block.trimStart();
  if (/^#{1,6}\s/.test(first)) return 'heading';
  if (/^(```|~~~)/.test(first)) return 'code';
  if (/^\|/.test(first)) return 'table';
  if (/^>/.test(first)) return 'quote';
  if (/^(?:[-*+]|\d+[.)])\s/.test(first)) return 'list';
  return 'paragraph';
}

/**
 * Splits markdown into passages: blank-line separated blocks (code fences kept whole), table rows
 * as their own passages with the header row as context, long paragraphs cut into windows of a few
 * sentences. Each passage remembers the heading it sits under.
 */
export function splitPassages(markdown: string, options: { maxSentences?: number } = {}): Passage[] {
  const maxSentences = options.maxSentences ?? 4;
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fence) {
      current.push(line);
      if (marker === fence) {
        blocks.push(current.join('\n'));
        current = [];
        fence = undefined;
      }
      continue;
    }
    if (marker) {
      if (current.length) blocks.push(current.join('\n'));
      current = [line];
      fence = marker;
      continue;
    }
    if (!line.trim()) {
      if (current.length) blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    if (/^#{1,6}\s/.test(line.trim()) && current.length) {
      blocks.push(current.join('\n'));
      current = [];
    }
    current.push(line);
    if (/^#{1,6}\s/.test(line.trim())) {
      blocks.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length) blocks.push(current.join('\n'));

  const passages: Passage[] = [];
  let heading = '';
  const push = (block: string, kind: Passage['kind'], context = '') => {
    const text = readableText(block).replace(/\s+/g, ' ').trim();
    if (!text) return;
    passages.push({
      index: passages.length,
      markdown: block,
      text,
      heading,
      kind,
      terms: terms(`${context} ${text}`),
      linkDensity: linkDensityOf(block),
    });
  };
  for (const block of blocks) {
    const kind = kindOf(block);
    if (kind === 'heading') {
      heading = readableText(block).replace(/\s+/g, ' ').trim();
      push(block, 'heading');
      continue;
    }
    if (kind === 'table') {
      const rows = block
        .split('\n')
        .filter((row) => row.trim() && !/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/.test(row));
      const header = rows[0] ?? '';
      for (const row of rows.slice(1)) push(row, 'table', readableText(header));
      if (rows.length === 1) push(header, 'table');
      continue;
    }
    if (kind === 'paragraph' || kind === 'quote') {
      const parts = sentences(readableText(block));
      if (parts.length > maxSentences + 1) {
        for (let index = 0; index < parts.length; index += maxSentences)
          push(parts.slice(index, index + maxSentences).join(' '), kind);
        continue;
      }
    }
    push(block, kind);
  }
  return passages;
}
