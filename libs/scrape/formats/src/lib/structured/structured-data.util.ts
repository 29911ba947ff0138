import { parseHTML } from 'linkedom';

import { boundedMarkup } from '@quarry/scrape/content';

import { addProperty } from './repeated-property.util';

/** A thing described on the page: a JSON-LD node, a microdata item, the meta tags, or DOM cues. */
export interface StructuredEntity {
  types: string[];
  source: 'json-ld' | 'microdata' | 'meta' | 'dom';
  properties: Record<string, unknown>;
}

type Element = ReturnType<typeof parseHTML>['document']['documentElement'];

const typeName = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value])
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.replace(/^.*[/#:]/, ''))
    .filter(Boolean);

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Every node of JSON-LD blocks (top-level arrays and `@graph` expanded). */
function jsonLdEntities(document: ReturnType<typeof parseHTML>['document']): StructuredEntity[] {
  const out: StructuredEntity[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record['@graph'])) (record['@graph'] as unknown[]).forEach(visit);
    const types = typeName(record['@type']);
    if (types.length === 0 && !record['@graph']) {
      if (Object.keys(record).some((key) => !key.startsWith('@')))
        out.push({ types: [], source: 'json-ld', properties: clean(record) });
      return;
    }
    if (types.length > 0) out.push({ types, source: 'json-ld', properties: clean(record) });
  };
  for (const script of Array.from(
    document.querySelectorAll('script[type="application/ld+json" i], script[type="application/ld+json"]'),
  ) as Element[]) {
    const text = (script.textContent ?? '').trim().replace(/^<!--|-->$/g, '');
    if (!text) continue;
    try {
      visit(JSON.parse(text));
    } catch {
      // Malformed JSON-LD is common; a page's other data still counts.
    }
  }
  return out;
}

function clean(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === '@context' || key === '@graph') continue;
    if (key === '@type') {
      out['@type'] = value;
      continue;
    }
    out[key] = value;
  }
  return out;
}

function microdataValue(element: Element): unknown {
  if (element.hasAttribute('itemscope')) return microdataItem(element);
  const tag = element.tagName.toLowerCase();
  if (element.hasAttribute('content')) return collapse(element.getAttribute('content'));
  if (['a', 'link', 'area'].includes(tag)) return element.getAttribute('href') ?? '';
  if (['img', 'audio', 'video', 'source', 'iframe', 'embed', 'track'].includes(tag))
    return element.getAttribute('src') ?? '';
  if (tag === 'time') return element.getAttribute('datetime') ?? collapse(element.textContent);
  if (tag === 'data' || tag === 'meter')
    return element.getAttribute('value') ?? collapse(element.textContent);
  return collapse(element.textContent);
}

function nearestScope(element: Element): Element | null {
  let parent = element.parentElement as Element | null;
  while (parent && !parent.hasAttribute('itemscope')) parent = parent.parentElement as Element | null;
  return parent;
}

function microdataItem(scope: Element): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const types = typeName((scope.getAttribute('itemtype') ?? '').split(/\s+/));
  if (types.length) item['@type'] = types;
  for (const element of Array.from(scope.querySelectorAll('[itemprop]')) as Element[]) {
    if (nearestScope(element) !== scope) continue;
    const value = microdataValue(element);
    for (const name of (element.getAttribute('itemprop') ?? '').split(/\s+/).filter(Boolean))
      addProperty(item, name, value);
  }
  return item;
}

function microdataEntities(document: ReturnType<typeof parseHTML>['document']): StructuredEntity[] {
  return (Array.from(document.querySelectorAll('[itemscope]')) as Element[])
    .filter((element) => !element.hasAttribute('itemprop'))
    .map((element) => {
      const properties = microdataItem(element);
      return { types: typeName(properties['@type']), source: 'microdata' as const, properties };
    });
}

function metaEntity(document: ReturnType<typeof parseHTML>['document']): StructuredEntity {
  const properties: Record<string, unknown> = {};
  const title = collapse(document.querySelector('title')?.textContent);
  if (title) properties['pageTitle'] = title;
  for (const meta of Array.from(document.querySelectorAll('meta')) as Element[]) {
    const name = (
      meta.getAttribute('property') ??
      meta.getAttribute('name') ??
      meta.getAttribute('itemprop') ??
      ''
    )
      .trim()
      .toLowerCase();
    const content = collapse(meta.getAttribute('content'));
    if (!name || !content || properties[name] !== undefined) continue;
    properties[name] = content;
  }
  const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute('href');
  if (canonical) properties['canonical'] = canonical;
  const language = document.documentElement?.getAttribute('lang');
  if (language) properties['language'] = language;
  return { types: ['meta'], source: 'meta', properties };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text of an element with a space between elements (textContent glues "$9.95" and "In stock" together). */
function spacedText(element: Element): string {
  return collapse(
    element.innerHTML
      .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity: string, name: string) => {
        if (name.startsWith('#')) {
          const code =
            name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
        }
        return ENTITIES[name.toLowerCase()] ?? entity;
      }),
  );
}

const LABELLED =
  /^\s*(name|product name|brand|manufacturer|sku|item (?:no|number)|article (?:no|number)|model(?: number)?|part number|mpn|author|by|written by|price|currency|availability|category)\s*[.:#]?\s*(.+)$/i;

/** Cues read from the visible page when it declares no data: headline, labelled values, price, stock, byline, dates. */
function domEntity(document: ReturnType<typeof parseHTML>['document']): StructuredEntity {
  const properties: Record<string, unknown> = {};
  const main =
    (document.querySelector('main, article, [role="main"]') as Element | null) ??
    (document.body as Element | null);
  const h1 = collapse(document.querySelector('h1')?.textContent);
  if (h1) properties['headline'] = h1;
  if (!main) return { types: ['dom'], source: 'dom', properties };
  const texts = (Array.from(main.querySelectorAll('p, span, div, li, td, dd, strong, small')) as Element[])
    .filter((element) => element.children.length <= 2)
    .filter(
      (element) =>
        !element.closest('header, footer, nav, aside, .related, [class*="related"], [class*="recommend"]'),
    )
    // Innermost elements first: "Brand: Acme" before the line that also holds "SKU: …".
    .sort((a, b) => a.children.length - b.children.length);
  for (const element of texts) {
    const text = collapse(element.textContent);
    if (!text || text.length > 120) continue;
    const labelled = LABELLED.exec(text);
    if (labelled) {
      const label = labelled[1].toLowerCase().replace(/\s+/g, '');
      const key =
        label === 'by' || label === 'writtenby'
          ? 'author'
          : label === 'productname'
            ? 'name'
            : label.startsWith('item') || label.startsWith('article') || label.startsWith('part')
              ? 'sku'
              : label;
      if (properties[key] === undefined) properties[key] = labelled[2].trim();
    }
  }
  const priceElement = (
    Array.from(main.querySelectorAll('[class*="price" i], [id*="price" i]')) as Element[]
  ).find(
    (element) =>
      !element.closest('.related, [class*="related"], [class*="recommend"], nav, footer, aside') &&
      /\d/.test(element.textContent ?? ''),
  );
  const mainText = spacedText(main);
  const priceText =
    collapse(priceElement?.textContent) ||
    (/(?:[$€£¥]|CHF|USD|EUR|GBP)\s?\d[\d.,]*|\d[\d.,]*\s?(?:[€$£]|EUR|USD|GBP|CHF)/.exec(mainText)?.[0] ??
      '');
  if (priceText && properties['price'] === undefined) properties['price'] = priceText;
  const brandElement = main.querySelector('[class*="brand" i]');
  if (brandElement && properties['brand'] === undefined)
    properties['brand'] = collapse(brandElement.textContent).replace(/^brand\s*[:.]?\s*/i, '');
  const stockText = mainText.match(
    /\b(in stock|out of stock|sold out|unavailable|available now|left in stock|pre-?order)\b/i,
  )?.[0];
  if (stockText && properties['availability'] === undefined) properties['availability'] = stockText;
  const byline = main.querySelector('[rel="author"], .author, .byline, [class*="author" i]');
  if (byline && properties['author'] === undefined)
    properties['author'] = collapse(byline.textContent).replace(/^by\s+/i, '');
  const time = main.querySelector('time[datetime]') ?? document.querySelector('time[datetime]');
  if (time) properties['datePublished'] = time.getAttribute('datetime');
  return { types: ['dom'], source: 'dom', properties };
}

/** A page's HTML as a linkedom document, nesting bounded first (`boundedMarkup`). */
export type PageDocument = ReturnType<typeof parseHTML>['document'];

export function parsePage(html: string): PageDocument {
  return parseHTML(boundedMarkup(html)).document;
}

/** Everything the page declares about itself, most authoritative first (JSON-LD, microdata, meta tags, DOM cues). */
export function readStructuredData(html: string): StructuredEntity[] {
  return html ? structuredDataOf(parsePage(html)) : [];
}

/** `readStructuredData` of a page already parsed (`parsePage`). */
export function structuredDataOf(document: PageDocument): StructuredEntity[] {
  return [
    ...jsonLdEntities(document),
    ...microdataEntities(document),
    metaEntity(document),
    domEntity(document),
  ];
}
