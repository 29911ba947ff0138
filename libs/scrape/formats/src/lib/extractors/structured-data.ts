import { addProperty } from '../structured/repeated-property.util';
import { parsePage } from '../structured/structured-data.util';

/** A schema.org node as read from JSON-LD or microdata (`@type` normalised to an array of short names). */
export type StructuredNode = Record<string, unknown> & { '@type'?: string[] };

export interface StructuredData {
  /** Every node of every JSON-LD block and microdata item, nested nodes included. */
  nodes: StructuredNode[];
  /** `<meta name|property>` values (og:*, product:*, twitter:*…), lower-cased names. */
  meta: Record<string, string>;
  /** `<link rel="canonical">`. */
  canonical?: string;
}

/** The DOM slice the extractors read, typed structurally (the workspace has no DOM typings). */
export interface ParsedElement {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly parentElement: ParsedElement | null;
  readonly nextElementSibling: ParsedElement | null;
  readonly children: ArrayLike<ParsedElement>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selectors: string): ParsedElement | null;
  querySelectorAll(selectors: string): ArrayLike<ParsedElement>;
  closest(selectors: string): ParsedElement | null;
}

export interface ParsedDocument {
  readonly body: ParsedElement | null;
  querySelector(selectors: string): ParsedElement | null;
  querySelectorAll(selectors: string): ArrayLike<ParsedElement>;
}

export function parseHtml(html: string): ParsedDocument {
  return parsePage(html) as unknown as ParsedDocument;
}

/** Short type names: `https://schema.org/Product` → `Product`. */
export function typesOf(node: unknown): string[] {
  const raw = (node as { '@type'?: unknown } | null)?.['@type'];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.replace(/^https?:\/\/schema\.org\//i, ''));
}

export function isType(node: unknown, ...types: string[]): boolean {
  return typesOf(node).some((type) => types.includes(type));
}

/** The object each node of `readStructuredData` was copied from (what other nodes' properties hold). */
const ORIGINALS = new WeakMap<StructuredNode, object>();

/** The value a node was read from: the one another node's property (`hasMenuSection`…) refers to. */
export function originalOf(node: StructuredNode): object {
  return ORIGINALS.get(node) ?? node;
}

/** Reads JSON-LD blocks, microdata items and meta tags of a document. */
export function readStructuredData(document: ParsedDocument): StructuredData {
  const nodes: StructuredNode[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const node = value as Record<string, unknown>;
    if (node['@type'] !== undefined) {
      const copy = { ...node, '@type': typesOf(node) };
      ORIGINALS.set(copy, node);
      nodes.push(copy);
    }
    for (const [key, child] of Object.entries(node)) if (key !== '@context') visit(child, depth + 1);
  };
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json" i]'))) {
    const text = (script.textContent ?? '').trim();
    if (!text) continue;
    try {
      visit(JSON.parse(text), 0);
    } catch {
      try {
        visit(JSON.parse(text.replace(/\p{Cc}+/gu, ' ')), 0);
      } catch {
        // not JSON: ignored
      }
    }
  }
  for (const item of Array.from(document.querySelectorAll('[itemscope][itemtype]'))) {
    if (item.parentElement?.closest('[itemscope]')) continue; // nested items are read through their parent
    visit(readMicrodataItem(item), 0);
  }
  const meta: Record<string, string> = {};
  for (const tag of Array.from(document.querySelectorAll('meta[content]'))) {
    const name = (
      tag.getAttribute('property') ??
      tag.getAttribute('name') ??
      tag.getAttribute('itemprop') ??
      ''
    ).toLowerCase();
    const content = tag.getAttribute('content') ?? '';
    if (name && content && meta[name] === undefined) meta[name] = content.trim();
  }
  const canonical = document.querySelector('link[rel="canonical" i]')?.getAttribute('href') ?? undefined;
  return { nodes, meta, canonical };
}

/** One microdata item as a JSON-LD-like object (`itemprop` → key; nested items → objects). */
function readMicrodataItem(item: ParsedElement): Record<string, unknown> {
  const result: Record<string, unknown> = {
    '@type': (item.getAttribute('itemtype') ?? '').split(/\s+/).filter(Boolean),
  };
  const walk = (element: ParsedElement): void => {
    for (const child of Array.from(element.children)) {
      const props = (child.getAttribute('itemprop') ?? '').split(/\s+/).filter(Boolean);
      const nested = child.hasAttribute('itemscope');
      if (props.length) {
        const value = nested ? readMicrodataItem(child) : microdataValue(child);
        for (const prop of props) addProperty(result, prop, value);
      }
      if (!nested) walk(child);
    }
  };
  walk(item);
  return result;
}

function microdataValue(element: ParsedElement): string {
  const tag = element.tagName.toLowerCase();
  if (element.hasAttribute('content')) return element.getAttribute('content') ?? '';
  if (tag === 'meta') return element.getAttribute('content') ?? '';
  if (['a', 'link', 'area'].includes(tag)) return element.getAttribute('href') ?? '';
  if (['img', 'audio', 'video', 'source', 'embed', 'iframe'].includes(tag))
    return element.getAttribute('src') ?? '';
  if (tag === 'time') return element.getAttribute('datetime') ?? (element.textContent ?? '').trim();
  if (tag === 'data' || tag === 'meter') return element.getAttribute('value') ?? '';
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** First string of a JSON-LD value (string, array, `{name}`, `{@value}`). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = text(item);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return text(object['name']) ?? text(object['@value']) ?? text(object['value']);
  }
  return undefined;
}

export function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A price string or number as a number: "1,299.00" → 1299, "12,50" → 12.5. */
export function parseAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[^\d.,-]/g, '');
  if (!/\d/.test(cleaned)) return undefined;
  let normalised = cleaned;
  const lastComma = cleaned.lastIndexOf(',');
  const lastDot = cleaned.lastIndexOf('.');
  if (lastComma > lastDot) {
    // "1.299,00" or "12,50": the comma is the decimal separator when two digits follow it
    normalised = /,\d{1,2}$/.test(cleaned)
      ? cleaned.replace(/\./g, '').replace(',', '.')
      : cleaned.replace(/,/g, '');
  } else {
    normalised = cleaned.replace(/,/g, '');
  }
  const amount = Number(normalised);
  return Number.isFinite(amount) ? amount : undefined;
}

/** Absolute URL against the page, or undefined. */
export function absoluteUrl(value: unknown, base: string): string | undefined {
  const raw =
    text(value) ??
    (value && typeof value === 'object' ? text((value as Record<string, unknown>)['url']) : undefined);
  if (!raw) return undefined;
  try {
    return new URL(raw, base).href;
  } catch {
    return undefined;
  }
}
