import type { StructuredEntity } from './structured-data.util';

type JsonSchema = Record<string, unknown>;

/**
 * Groups of names that mean the same field across schema.org, Open Graph, product meta tags, DOM
 * labels and the names callers give their schema properties.
 */
const SYNONYMS: Record<string, string[]> = {
  name: ['name', 'title', 'headline', 'productname', 'ogtitle', 'twittertitle', 'itemname', 'pagetitle'],
  price: [
    'price',
    'lowprice',
    'amount',
    'priceamount',
    'productpriceamount',
    'ogpriceamount',
    'saleprice',
    'offerprice',
    'cost',
  ],
  currency: ['currency', 'pricecurrency', 'productpricecurrency', 'ogpricecurrency', 'currencycode'],
  brand: ['brand', 'manufacturer', 'productbrand', 'vendor', 'maker', 'ogbrand'],
  sku: [
    'sku',
    'mpn',
    'productid',
    'gtin',
    'gtin8',
    'gtin12',
    'gtin13',
    'gtin14',
    'productretaileritemid',
    'retaileritemid',
    'itemnumber',
    'articlenumber',
    'partnumber',
    'model',
    'isbn',
  ],
  availability: ['availability', 'instock', 'stock', 'productavailability', 'stockstatus', 'available'],
  author: ['author', 'creator', 'byline', 'articleauthor', 'writer', 'authorname'],
  published: [
    'datepublished',
    'articlepublishedtime',
    'publishedtime',
    'publishdate',
    'publicationdate',
    'pubdate',
    'datecreated',
    'uploaddate',
    'date',
    'published',
    'releasedate',
  ],
  modified: ['datemodified', 'articlemodifiedtime', 'modifiedtime', 'lastmodified', 'updated', 'updatedat'],
  description: ['description', 'ogdescription', 'twitterdescription', 'summary', 'abstract'],
  image: ['image', 'ogimage', 'twitterimage', 'thumbnail', 'thumbnailurl', 'images', 'photo'],
  url: ['url', 'ogurl', 'canonical', 'link', 'mainentityofpage'],
  category: ['category', 'articlesection', 'section', 'genre', 'productcategory'],
  rating: ['ratingvalue', 'rating', 'stars'],
  reviews: ['reviewcount', 'ratingcount', 'reviews'],
  keywords: ['keywords', 'tags', 'articletag'],
  language: ['inlanguage', 'language', 'oglocale', 'lang'],
  publisher: ['publisher', 'ogsitename', 'sitename', 'site'],
  email: ['email', 'mail'],
  phone: ['telephone', 'phone', 'tel'],
  address: ['address', 'streetaddress', 'location'],
};

const SOURCE_WEIGHT: Record<StructuredEntity['source'], number> = {
  'json-ld': 1,
  microdata: 0.95,
  meta: 0.8,
  dom: 0.7,
};
/** Keys that are weaker evidence than their group's other names (the `<title>` tag carries the site name). */
const KEY_WEIGHT: Record<string, number> = { pagetitle: 0.75, twittertitle: 0.95 };

const normalizeKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function splitName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const GROUP_OF = new Map<string, string>();
for (const [group, names] of Object.entries(SYNONYMS))
  for (const name of names) if (!GROUP_OF.has(name)) GROUP_OF.set(name, group);

/** The synonym group a caller's field name (and description) belongs to. */
export function fieldGroup(field: string, description = ''): string | undefined {
  const joined = normalizeKey(field);
  if (GROUP_OF.has(joined)) return GROUP_OF.get(joined);
  const tokens = splitName(field);
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    const group = GROUP_OF.get(tokens[index]) ?? GROUP_OF.get(tokens[index].replace(/s$/, ''));
    if (group) return group;
  }
  for (const [group, names] of Object.entries(SYNONYMS))
    if (names.some((name) => name.length >= 5 && joined.includes(name))) return group;
  const described = splitName(description);
  for (const token of described) if (GROUP_OF.has(token)) return GROUP_OF.get(token);
  return undefined;
}

interface Candidate {
  path: string[];
  value: unknown;
  entity: number;
  source: StructuredEntity['source'];
}

function flatten(
  value: unknown,
  path: string[],
  entity: number,
  source: StructuredEntity['source'],
  out: Candidate[],
): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    out.push({ path, value, entity, source });
    for (const item of value) flatten(item, path, entity, source, out);
    return;
  }
  if (typeof value === 'object') {
    out.push({ path, value, entity, source });
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (key.startsWith('@') && key !== '@id') continue;
      flatten(child, [...path, key], entity, source, out);
    }
    return;
  }
  out.push({ path, value, entity, source });
}

/** The group a candidate path stands for: `offers.price` → price, `author.name` → author, `brand.name` → brand. */
function candidateGroup(path: string[]): string | undefined {
  const last = normalizeKey(path[path.length - 1] ?? '');
  const parent = normalizeKey(path[path.length - 2] ?? '');
  if ((last === 'name' || last === 'value' || last === 'text') && parent && GROUP_OF.has(parent)) {
    const parentGroup = GROUP_OF.get(parent);
    if (parentGroup && parentGroup !== 'name') return parentGroup;
  }
  // `seller.name`, `itemListElement.name`: the name of something else than the entity.
  if (last === 'name' && parent) return undefined;
  return GROUP_OF.get(last);
}

const CURRENCY_SYMBOLS: [RegExp, string][] = [
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/¥|円/, 'JPY'],
  [/₹/, 'INR'],
  [/\bCHF\b/, 'CHF'],
  [/\bCAD\b|C\$/, 'CAD'],
  [/\bAUD\b|A\$/, 'AUD'],
  [/\$/, 'USD'],
];

/** `"$1,299.99"` → 1299.99, `"€59,00"` → 59, `"1.199,00"` → 1199. */
export function parseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /-?\d[\d.,\s]*\d|-?\d/.exec(value.replace(/\u00a0/g, ' '));
  if (!match) return undefined;
  let digits = match[0].replace(/\s/g, '');
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  if (lastComma > lastDot) {
    const decimals = digits.length - lastComma - 1;
    digits =
      decimals === 3 && lastDot < 0 && digits.indexOf(',') === lastComma
        ? digits.replace(/,/g, '')
        : digits.replace(/\./g, '').replace(',', '.');
  } else digits = digits.replace(/,/g, '');
  const parsed = Number(digits);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function availabilityToBoolean(value: string): boolean | undefined {
  const v = value.toLowerCase().replace(/^.*[/#]/, '');
  if (
    /out ?of ?stock|outofstock|soldout|sold out|discontinued|unavailable|preorder|pre-order|presale|backorder/.test(
      v,
    )
  )
    return false;
  if (
    /instock|in stock|limitedavailability|onlineonly|instoreonly|available|left in stock|^true$|^yes$|^1$/.test(
      v,
    )
  )
    return true;
  if (/^false$|^no$|^0$/.test(v)) return false;
  return undefined;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(textOf).find((text) => text !== undefined);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return textOf(record['name'] ?? record['@value'] ?? record['text'] ?? record['url'] ?? record['@id']);
  }
  return undefined;
}

/** "Headline | Site Name" → "Headline": drops a short trailing (or leading) site segment of a page title. */
export function stripSiteName(title: string): string {
  const parts = title.split(/\s+(?:[|–—·•»]|-|::)\s+/);
  if (parts.length < 2) return title;
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
  const others = parts.filter((part) => part !== longest);
  return others.every((part) => part.split(/\s+/).length <= 5) ? longest : title;
}

/** Coerces a found value to the field's schema type; undefined when it cannot be. */
function coerce(value: unknown, schema: JsonSchema, group: string | undefined): unknown {
  const types = (Array.isArray(schema['type']) ? schema['type'] : [schema['type']]).filter(
    (type): type is string => typeof type === 'string' && type !== 'null',
  );
  const type = types[0] ?? 'string';
  if (type === 'string') {
    let text = textOf(value);
    if (text === undefined) return undefined;
    if (group === 'sku') text = text.replace(/^[a-z]+:(?=\S)/i, '');
    if (group === 'name') text = stripSiteName(text);
    if (group === 'availability') text = text.replace(/^https?:\/\/schema\.org\//i, '');
    if (group === 'currency') {
      if (/^[A-Z]{3}$/.test(text)) return text;
      const symbol = CURRENCY_SYMBOLS.find(([pattern]) => pattern.test(text as string));
      return symbol?.[1];
    }
    if (Array.isArray(schema['enum']) && !(schema['enum'] as unknown[]).includes(text)) return undefined;
    return text;
  }
  if (type === 'number' || type === 'integer') {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
    const number = parseNumber(Array.isArray(value) ? value[0] : value);
    if (number === undefined) return undefined;
    return type === 'integer' ? Math.round(number) : number;
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    const text = textOf(value);
    return text === undefined ? undefined : availabilityToBoolean(text);
  }
  if (type === 'array') {
    const items = (schema['items'] as JsonSchema | undefined) ?? {};
    const list = Array.isArray(value)
      ? value
      : typeof value === 'string' && group === 'keywords'
        ? value.split(/\s*,\s*/)
        : [value];
    const coerced = list.map((item) => coerce(item, items, group)).filter((item) => item !== undefined);
    return coerced.length ? coerced : undefined;
  }
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) return value;
  return undefined;
}

export interface FillResult {
  value: Record<string, unknown>;
  /** Schema fields for which nothing usable was found. */
  missing: string[];
}

/**
 * Offline json extraction: fills an object schema from the page's structured data by matching
 * each property name (and description) to known field names, preferring the entity that matches
 * the schema best, then the most authoritative source, and coercing to the property's type.
 */
export function fillSchema(
  schema: JsonSchema,
  entities: readonly StructuredEntity[],
  currencyHint?: string,
): FillResult {
  const candidates: Candidate[] = [];
  entities.forEach((entity, index) => {
    for (const [key, value] of Object.entries(entity.properties)) {
      if (key.startsWith('@')) continue;
      flatten(value, [key], index, entity.source, candidates);
    }
  });
  return fillObject(schema, candidates, entities, '', currencyHint);
}

function fillObject(
  schema: JsonSchema,
  candidates: Candidate[],
  entities: readonly StructuredEntity[],
  prefix: string,
  currencyHint?: string,
): FillResult {
  const properties = Object.entries((schema['properties'] as Record<string, JsonSchema> | undefined) ?? {});
  const groups = new Map(
    properties.map(([name, child]) => [
      name,
      fieldGroup(name, typeof child['description'] === 'string' ? child['description'] : ''),
    ]),
  );
  // The entity that answers most of the schema's fields is the page's subject (the Product, not the WebSite).
  const coverage = new Map<number, number>();
  for (const candidate of candidates) {
    const group = candidateGroup(candidate.path);
    if (group && [...groups.values()].includes(group))
      coverage.set(
        candidate.entity,
        (coverage.get(candidate.entity) ?? 0) + (candidate.path.length <= 3 ? 1 : 0.5),
      );
  }
  const subjectTypes =
    /product|article|posting|recipe|event|book|movie|course|job|offer|review|newsarticle|item/i;
  let primary = -1;
  let best = 0;
  for (const [entity, count] of coverage) {
    const bonus = entities[entity]?.types.some((type) => subjectTypes.test(type)) ? 0.5 : 0;
    if (count + bonus > best) {
      best = count + bonus;
      primary = entity;
    }
  }
  const value: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, child] of properties) {
    const group = groups.get(name);
    const childType = Array.isArray(child['type']) ? child['type'][0] : child['type'];
    if (childType === 'object' && child['properties']) {
      const nested = fillObject(child, candidates, entities, `${prefix}${name}.`, currencyHint);
      if (Object.keys(nested.value).length) value[name] = nested.value;
      missing.push(...nested.missing);
      continue;
    }
    if (childType === 'array' && (child['items'] as JsonSchema | undefined)?.['properties']) {
      const itemSchema = child['items'] as JsonSchema;
      const items = entities
        .map((entity, index) => ({ entity, index }))
        .filter(({ entity }) => entity.source === 'json-ld' || entity.source === 'microdata')
        .map(({ index }) =>
          fillObject(
            itemSchema,
            candidates.filter((candidate) => candidate.entity === index),
            entities,
            '',
            currencyHint,
          ),
        )
        .filter(
          (result) => result.missing.length < Object.keys((itemSchema['properties'] as object) ?? {}).length,
        )
        .map((result) => result.value);
      if (items.length) value[name] = items;
      else missing.push(`${prefix}${name}`);
      continue;
    }
    const ranked = candidates
      .map((candidate) => ({ candidate, score: matchScore(name, group, candidate, primary) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    let found: unknown;
    for (const { candidate } of ranked) {
      found = coerce(candidate.value, child, group);
      if (found !== undefined) break;
    }
    if (
      found === undefined &&
      group === 'currency' &&
      currencyHint &&
      (childType === 'string' || childType === undefined)
    )
      found = currencyHint;
    if (found === undefined) missing.push(`${prefix}${name}`);
    else value[name] = found;
  }
  return { value, missing };
}

function matchScore(field: string, group: string | undefined, candidate: Candidate, primary: number): number {
  const last = candidate.path[candidate.path.length - 1] ?? '';
  let score = 0;
  if (normalizeKey(last) === normalizeKey(field)) score = 1;
  else if (group && candidateGroup(candidate.path) === group) score = 0.9;
  else {
    const fieldTokens = new Set(splitName(field));
    const keyTokens = splitName(candidate.path.join(' '));
    const shared = keyTokens.filter((token) => fieldTokens.has(token)).length;
    if (shared > 0 && fieldTokens.size > 0) score = 0.5 * (shared / fieldTokens.size);
  }
  if (score === 0) return 0;
  score *= SOURCE_WEIGHT[candidate.source] * (KEY_WEIGHT[normalizeKey(last)] ?? 1);
  if (candidate.entity === primary) score += 0.3;
  // Shallow paths describe the entity itself; deep ones describe things it mentions.
  score -= 0.05 * Math.max(0, candidate.path.length - 2);
  return score;
}

/** The page's currency when one price on it names one (used when a schema asks for a currency no field declares). */
export function currencyFromEntities(entities: readonly StructuredEntity[]): string | undefined {
  for (const entity of entities) {
    const price = entity.properties['price'];
    if (typeof price === 'string') {
      const symbol = CURRENCY_SYMBOLS.find(([pattern]) => pattern.test(price));
      if (symbol) return symbol[1];
    }
  }
  return undefined;
}
