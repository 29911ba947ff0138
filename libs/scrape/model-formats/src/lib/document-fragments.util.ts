import type { LayoutBlock, ScrapeDocument } from '@quarry/contracts';
import {
  applyRedaction,
  detectPii,
  type PiiEntity,
  type PiiMode,
  type PiiSpan,
  type ReplaceStyle,
} from '@quarry/scrape/formats';

/**
 * Keeps a parsed document's fragments (PDF `pages` and `blocks`, docs/documents.md#output) true to its
 * markdown after a post-processing transform rewrote that markdown: every `markdownSpan` either
 * indexes the returned markdown exactly (`markdown.slice(start, end) === content`) or is null.
 */

function items(document: ScrapeDocument): LayoutBlock[] {
  return (document.blocks ?? []).flatMap((page) => page.items);
}

/** Blocks with a span, in markdown order. */
function spanned(document: ScrapeDocument): { block: LayoutBlock; span: [number, number] }[] {
  return items(document)
    .flatMap((block) => (block.markdownSpan ? [{ block, span: block.markdownSpan }] : []))
    .sort((a, b) => a.span[0] - b.span[0]);
}

/**
 * After a transform of the whole markdown (onlyCleanContent): each block's fragment is looked up,
 * in order, in the new markdown; a fragment that is no longer there verbatim (removed or rewritten)
 * gets `markdownSpan: null` (docs/documents.md#output).
 */
export function relocateSpans(document: ScrapeDocument, markdown: string): void {
  let cursor = 0;
  for (const { block } of spanned(document)) {
    const at = block.content ? markdown.indexOf(block.content, cursor) : -1;
    if (at < 0) {
      block.markdownSpan = null;
      continue;
    }
    block.markdownSpan = [at, at + block.content.length];
    cursor = at + block.content.length;
  }
}

/** The spans applyRedaction really replaces: sorted, an overlapping later span is skipped. */
export function appliedSpans(spans: readonly PiiSpan[]): PiiSpan[] {
  const applied: PiiSpan[] = [];
  let cursor = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < cursor) continue;
    applied.push(span);
    cursor = span.end;
  }
  return applied;
}

function replacementLength(span: PiiSpan, style: ReplaceStyle): number {
  if (style === 'tag') return span.type.length + 2;
  return style === 'mask' ? span.end - span.start : 0;
}

export interface PiiFragmentOptions {
  mode: PiiMode;
  entities?: readonly PiiEntity[];
  replaceStyle: ReplaceStyle;
}

/**
 * Redacts the fragments of a parsed document consistently with its markdown, which was redacted
 * with `found` (the spans found in `markdown`, which must be the text the blocks' spans index):
 * - a block whose span no PII straddles keeps an exact span, moved by the replacements before it,
 *   and its content becomes that slice of the redacted markdown;
 * - other fragments (page markdown, furniture blocks kept out of the markdown, blocks a PII span
 *   straddles) are redacted on their own — patterns and dictionary of the requested mode, plus
 *   every entity text found in the markdown, so nothing redacted there shows here — and such a
 *   block gets `markdownSpan: null`.
 */
export function redactFragments(
  document: ScrapeDocument,
  markdown: string,
  found: readonly PiiSpan[],
  options: PiiFragmentOptions,
): void {
  const applied = appliedSpans(found);
  const redactedMarkdown = applyRedaction(markdown, applied, options.replaceStyle);
  const shift = (offset: number) => {
    let moved = offset;
    for (const span of applied) {
      if (span.end > offset) break;
      moved += replacementLength(span, options.replaceStyle) - (span.end - span.start);
    }
    return moved;
  };
  const straddles = (offset: number) => applied.some((span) => span.start < offset && offset < span.end);
  const known = uniqueEntities(found);
  const redactText = (text: string) => redactAlone(text, known, options);

  const mapped = new Set<LayoutBlock>();
  for (const { block, span } of spanned(document)) {
    const [start, end] = span;
    if (markdown.slice(start, end) !== block.content || straddles(start) || straddles(end)) continue;
    const moved: [number, number] = [shift(start), shift(end)];
    block.markdownSpan = moved;
    block.content = redactedMarkdown.slice(moved[0], moved[1]);
    mapped.add(block);
  }
  for (const block of items(document)) {
    if (mapped.has(block)) continue;
    const content = redactText(block.content);
    if (content !== block.content || block.markdownSpan !== null) {
      block.content = content;
      block.markdownSpan = null;
    }
  }
  for (const page of document.pages ?? []) page.markdown = redactText(page.markdown);
}

function uniqueEntities(found: readonly PiiSpan[]): { text: string; type: PiiEntity }[] {
  const seen = new Map<string, PiiEntity>();
  for (const span of found)
    if (span.text.trim().length > 1 && !seen.has(span.text)) seen.set(span.text, span.type);
  // Longest first, so "Maria Lopez" is matched before "Maria".
  return [...seen.entries()]
    .map(([text, type]) => ({ text, type }))
    .sort((a, b) => b.text.length - a.text.length);
}

function redactAlone(
  text: string,
  known: readonly { text: string; type: PiiEntity }[],
  options: PiiFragmentOptions,
): string {
  if (!text) return text;
  const spans = detectPii(text, { mode: options.mode, entities: options.entities });
  for (const entity of known) {
    for (
      let at = text.indexOf(entity.text);
      at >= 0;
      at = text.indexOf(entity.text, at + entity.text.length)
    ) {
      const span = { start: at, end: at + entity.text.length, type: entity.type, text: entity.text };
      if (!spans.some((other) => span.start < other.end && span.end > other.start)) spans.push(span);
    }
  }
  return applyRedaction(text, spans, options.replaceStyle);
}
