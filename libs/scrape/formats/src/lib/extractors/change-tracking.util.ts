import { structuredPatch, type StructuredPatchHunk } from 'diff';

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

/**
 * Whether the comparison keys differ, by counting characters instead of sorting them: the same
 * answer in linear time (sorting a 4.8 MB page's characters took 0.65 s, twice per comparison, on
 * the event loop of the worker and of the gateway's cached change tracking).
 */
export function hasChanged(previous: string, current: string): boolean {
  const counts = new CharacterCounts();
  counts.add(compared(previous), 1);
  counts.add(compared(current), -1);
  return !counts.balanced();
}

function compared(markdown: string): string {
  return markdown.replace(IFRAME_LINK, '').replace(/\s+/gu, '');
}

/** A multiset of code points: an array for the Basic Multilingual Plane, a map past it. */
class CharacterCounts {
  private readonly basic = new Int32Array(0x10000);
  private readonly astral = new Map<number, number>();

  add(text: string, sign: 1 | -1): void {
    for (let i = 0; i < text.length; i++) {
      const code = text.codePointAt(i) as number;
      if (code > 0xffff) {
        this.astral.set(code, (this.astral.get(code) ?? 0) + sign);
        i++;
      } else this.basic[code] += sign;
    }
  }

  balanced(): boolean {
    for (const count of this.basic) if (count !== 0) return false;
    for (const count of this.astral.values()) if (count !== 0) return false;
    return true;
  }
}

/**
 * Time the line diff may take. Its cost grows with the size of the pages times the amount of change
 * (two different versions of 150,000 lines did not finish in ten minutes, on the worker's event
 * loop): past it the diff is one hunk replacing every line, still a valid patch.
 */
export const DIFF_BUDGET_MS = 1_000;

/** A git-style unified diff of two markdown versions (`diff --git a/… b/…`, hunks with 3 lines of context). */
export function gitDiff(
  previous: string,
  current: string,
  name = 'page.md',
  budgetMs = DIFF_BUDGET_MS,
): string {
  const before = withNewline(previous);
  const after = withNewline(current);
  const hunks = structuredPatch(`a/${name}`, `b/${name}`, before, after, '', '', {
    context: 3,
    timeout: budgetMs,
  })?.hunks ?? [replacement(before, after)];
  const lines = [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`];
  for (const hunk of hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** One hunk removing every line of `before` and adding every line of `after` (both end in a newline). */
function replacement(before: string, after: string): StructuredPatchHunk {
  const removed = before === '\n' ? [] : before.slice(0, -1).split('\n');
  const added = after === '\n' ? [] : after.slice(0, -1).split('\n');
  const lines: string[] = [];
  for (const line of removed) lines.push(`-${line}`);
  for (const line of added) lines.push(`+${line}`);
  return {
    oldStart: removed.length ? 1 : 0,
    oldLines: removed.length,
    newStart: added.length ? 1 : 0,
    newLines: added.length,
    lines,
  };
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
