import { COMMENT_NODE, type DomDocument, type DomElement, type DomNode } from './dom.types';
import { contains } from './query.util';

/**
 * React's streaming server rendering (React 18+, Next.js App Router) sends the parts of a page that
 * waited on data after the shell, as hidden segments at the end of the body (`<div hidden
 * id="S:4">…</div>`), each followed by a script that moves it into place: `$RC("B:4","S:4")` replaces a
 * Suspense boundary's fallback (the `<!--$?--><template id="B:4"></template>…<!--/$-->` run) with the
 * segment, `$RS("S:5","P:5")` replaces a placeholder (`<template id="P:5">`). A browser runs those
 * scripts; without them the page's text would be hidden, or at the end out of order. This does what the
 * scripts do. Pairs come from the scripts, read from the raw markup (the parsed document has empty
 * script bodies); a segment no script names goes where the template with its own number is (React
 * numbers a boundary, its segment and a placeholder alike), as when a page was saved without scripts.
 */

/** How React serializes a segment: checked on the raw markup before anything else is done. */
const SEGMENT_MARK = '<div hidden id="S:';
const SEGMENT_ID = /^S:[0-9a-z]+$/;
const CALL = /\$R([CS])\(\s*["']([BSP]:[0-9a-z]+)["']\s*,\s*["']([BSP]:[0-9a-z]+)["']/g;
/** Bound on the segments handled on one page (a hostile page could stream any number). */
const MAX_SEGMENTS = 5_000;

/** Returns how many segments were moved (their content may now sit deeper than it was parsed). */
export function completeStreamedSegments(document: DomDocument, markup: string): number {
  if (!markup.includes(SEGMENT_MARK) || !document.body) return 0;
  // Segment id → the template it replaces (a boundary "B:…" or a placeholder "P:…").
  const targets = new Map<string, string>();
  if (markup.includes('$RC(') || markup.includes('$RS('))
    for (const [, kind, first, second] of markup.matchAll(CALL)) {
      if (targets.size >= MAX_SEGMENTS) break;
      if (kind === 'C' && first.startsWith('B:') && second.startsWith('S:')) targets.set(second, first);
      else if (kind === 'S' && first.startsWith('S:') && second.startsWith('P:')) targets.set(first, second);
    }
  const segments: DomElement[] = [];
  const templates = new Map<string, DomElement>();
  const walk = (element: DomElement): void => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      const id = child.getAttribute('id');
      if (id !== null) {
        if (child.localName === 'template' && /^[BP]:/.test(id)) {
          if (!templates.has(id)) templates.set(id, child);
        } else if (child.localName === 'div' && child.hasAttribute('hidden') && SEGMENT_ID.test(id)) {
          if (segments.length < MAX_SEGMENTS) segments.push(child);
        }
      }
      walk(child);
    }
  };
  walk(document.body);
  let moved = 0;
  for (const segment of segments) {
    const id = segment.getAttribute('id') ?? '';
    const suffix = id.slice(2);
    const targetId = targets.get(id) ?? (templates.has(`B:${suffix}`) ? `B:${suffix}` : `P:${suffix}`);
    const target = templates.get(targetId);
    // A template inside the segment itself cannot receive it (a malformed or hostile page).
    if (!target?.parentNode || contains(segment, target)) continue;
    if (targetId.startsWith('B:')) completeBoundary(target, segment);
    else moveChildrenBefore(segment, target);
    segment.remove();
    target.remove();
    moved += 1;
  }
  return moved;
}

/**
 * A Suspense boundary: `<!--$?-->` before the template, the fallback after it up to the matching
 * `<!--/$-->`. The fallback goes and the segment's nodes take its place.
 */
function completeBoundary(template: DomElement, segment: DomElement): void {
  const start = template.previousSibling;
  const parent = template.parentNode;
  if (!parent || !start || start.nodeType !== COMMENT_NODE || !/^\$[?!]?$/.test(commentData(start))) {
    moveChildrenBefore(segment, template);
    return;
  }
  const end = boundaryEnd(template);
  // Without its end marker the extent of the fallback is unknown: it stays, the segment goes in front.
  if (!end) {
    moveChildrenBefore(segment, template);
    return;
  }
  for (let node = template.nextSibling; node && node !== end; node = template.nextSibling)
    parent.removeChild(node);
  for (let child = segment.firstChild; child; child = segment.firstChild) parent.insertBefore(child, end);
}

/** The `<!--/$-->` that closes the boundary opened before `template`, nested boundaries skipped. */
function boundaryEnd(template: DomElement): DomNode | undefined {
  let depth = 0;
  for (let node = template.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType !== COMMENT_NODE) continue;
    const data = commentData(node);
    if (data === '/$') {
      if (depth === 0) return node;
      depth -= 1;
    } else if (data === '$' || data === '$?' || data === '$!') depth += 1;
  }
  return undefined;
}

function moveChildrenBefore(segment: DomElement, reference: DomElement): void {
  const parent = reference.parentNode;
  if (!parent) return;
  for (let child = segment.firstChild; child; child = segment.firstChild)
    parent.insertBefore(child, reference);
}

function commentData(node: DomNode): string {
  return ((node as DomNode & { data?: string }).data ?? '').trim();
}
