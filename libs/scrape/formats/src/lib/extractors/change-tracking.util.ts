import { structuredPatch } from 'diff';

import { parseAmount, parseHtml, readStructuredData, type StructuredData, text } from './structured-data';

/** Markdown links to embedded frames (`[iframe](…)`): frame URLs change between loads without the content changing. */
const IFRAME_LINK = /\[iframe\]\([^)]*\)/gi;

/**
 * What "changed" compares (docs/scraping.md#formats): the sorted multiset of the markdown's non-whitespace
 * characters, after iframe links are removed. Moving, re-wrapping or re-spacing text is not a
 * change; adding, removing or replacing a character is.
 */
export function comparisonKey(markdown: string): string {
  return [...markdown.replace(IFRAME_LINK, '').replace(/\s+/gu, '')].sort().join('');
}

export function hasChanged(previous: string, current: string): boolean {
  return comparisonKey(previous) !== comparisonKey(current);
}

/** A git-style unified diff of two markdown versions (`diff --git a/… b/…`, hunks with 3 lines of context). */
export function gitDiff(previous: string, current: string, name = 'page.md'): string {
  const patch = structuredPatch(
    `a/${name}`,
    `b/${name}`,
    withNewline(previous),
    withNewline(current),
    '',
    '',
    { context: 3 },
  );
  const lines = [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    lines.push(...hunk.lines);
  }
  return `${lines.join('\n')}\n`;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

const MAX_KEYS = 300;
const MAX_VALUE_CHARS = 2_000;

/** `Product Name` / `product_name` / `productName` → `productname`. */
export function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The values a page states in structured data, as a flat index by normalised key: every JSON-LD /
 * microdata property (`offers.price` also as `price`, `brand.name` as `brand`…) and every meta
 * tag (`og:title` also as `title`). What change tracking's json mode compares without a model.
 */
export function structuredValues(html: string): Record<string, unknown> {
  const data = readStructuredData(parseHtml(html));
  return indexValues(data);
}

export function indexValues(data: StructuredData): Record<string, unknown> {
  const index: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const normalised = fieldKey(key);
    if (!normalised || index[normalised] !== undefined || Object.keys(index).length >= MAX_KEYS) return;
    const scalar = typeof value === 'string' ? value.trim().slice(0, MAX_VALUE_CHARS) : value;
    if (scalar === '' || scalar === undefined || scalar === null) return;
    index[normalised] = scalar;
  };
  for (const node of data.nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('@')) continue;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        put(key, value);
      else if (value && typeof value === 'object') {
        const first = Array.isArray(value) ? value[0] : value;
        if (first && typeof first === 'object') {
          for (const [inner, innerValue] of Object.entries(first as Record<string, unknown>)) {
            if (
              !inner.startsWith('@') &&
              (typeof innerValue === 'string' ||
                typeof innerValue === 'number' ||
                typeof innerValue === 'boolean')
            ) {
              put(`${key}${inner}`, innerValue);
              put(inner, innerValue);
            }
          }
        }
        put(key, text(value));
      }
    }
  }
  for (const [name, value] of Object.entries(data.meta)) {
    put(name, value);
    put(name.replace(/^(og|twitter|product|article|book|profile|music|video):/, '').replace(/:/g, ''), value);
  }
  return index;
}

const ALIASES: Record<string, string[]> = {
  title: ['name', 'headline', 'ogtitle', 'title'],
  name: ['name', 'title', 'headline', 'ogtitle'],
  headline: ['headline', 'name', 'title'],
  price: ['price', 'lowprice', 'priceamount', 'offersprice', 'amount'],
  currency: ['pricecurrency', 'pricecurrency', 'currency'],
  availability: ['availability', 'offersavailability'],
  description: ['description', 'ogdescription'],
  image: ['image', 'ogimage'],
  author: ['author', 'authorname', 'creator'],
  date: ['datepublished', 'publishedtime', 'datemodified', 'date'],
  published: ['datepublished', 'publishedtime'],
  rating: ['ratingvalue', 'aggregateratingratingvalue', 'rating'],
  brand: ['brand', 'brandname', 'manufacturer'],
  sku: ['sku', 'productid', 'mpn'],
};

export interface SchemaReading {
  /** Values of the schema's top-level properties that the index holds. */
  values: Record<string, unknown>;
  /** Properties the structured data does not state (these need a language model). */
  missing: string[];
}

/** Reads the top-level properties of a JSON schema from a value index, coerced to the declared type. */
export function readSchemaFields(
  schema: Record<string, unknown> | undefined,
  index: Record<string, unknown>,
): SchemaReading {
  const properties = (schema?.['properties'] ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [property, definition] of Object.entries(properties)) {
    const key = fieldKey(property);
    const candidates = [
      key,
      ...(ALIASES[key] ?? []),
      ...Object.entries(ALIASES)
        .filter(([, aliases]) => aliases.includes(key))
        .map(([alias]) => alias),
    ];
    const found = candidates.map((candidate) => index[candidate]).find((value) => value !== undefined);
    if (found === undefined) {
      missing.push(property);
      continue;
    }
    values[property] = coerce(found, definition?.['type']);
  }
  return { values, missing };
}

function coerce(value: unknown, type: unknown): unknown {
  const declared = Array.isArray(type) ? type.find((entry) => entry !== 'null') : type;
  if (declared === 'number' || declared === 'integer') {
    const amount = parseAmount(value);
    return amount === undefined ? value : declared === 'integer' ? Math.round(amount) : amount;
  }
  if (declared === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string') return /^(true|yes|1)$/i.test(value) || /InStock$/i.test(value);
  }
  if (declared === 'string' && typeof value !== 'string') return String(value);
  return value;
}
