import { parseHTML } from 'linkedom';

import {
  type PageDocument,
  parsePage,
  structuredDataOf,
  type StructuredEntity,
} from '../structured/structured-data.util';
import { containedIn } from '../text/contained-in.util';
import { readableText } from '../text/passages.util';
import { sentences } from '../text/tokens.util';
import { findValues } from './values.util';

/**
 * One statement of a page an answer can come from: a labelled value (structured data, a table
 * cell, a definition, "Label: value"), or a sentence of running text.
 */
export interface Fact {
  source: 'structured' | 'table' | 'definition' | 'labelled' | 'text';
  /** What the value is called ("Weight", "Team × Price"); empty for sentences. */
  label: string;
  /** The value (labelled facts) or the sentence. */
  value: string;
  /** The heading the fact sits under. */
  heading: string;
  /** Order on the page (earlier facts are more prominent). */
  order: number;
  /** Struck through on the page (an old price). */
  struck?: boolean;
  /** Which of several pages it came from. */
  page: number;
  /** Its heading is the page's own title (the H1): said of the whole page, not of this section. */
  underTitle?: boolean;
  /** A byline or dateline ("Daniel Osei · June 9, 2026 · 4 min read"): when the page was written. */
  byline?: boolean;
}

export interface FactPage {
  url?: string;
  markdown: string;
  html?: string;
  title?: string;
}

export interface PageFacts {
  facts: Fact[];
  /** The page's own name for itself: first heading, else title. */
  headline: string;
  title: string;
  /** Text the page shows (markdown as text, title, structured values): for "is it on the page at all". */
  vocabulary: string;
  /** Structured entities (JSON-LD, microdata). */
  entities: StructuredEntity[];
}

const LABELLED = /^\s*([^:\n]{1,48}?)\s*:\s+(\S.*)$/;
const CURRENCY_SYMBOL: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹' };
const UNIT_CODES: Record<string, string> = {
  GRM: 'g',
  KGM: 'kg',
  LBR: 'lb',
  ONZ: 'oz',
  CMT: 'cm',
  MMT: 'mm',
  MTR: 'm',
  KMT: 'km',
  INH: 'inches',
  LTR: 'l',
  MLT: 'ml',
  MIN: 'minutes',
  HUR: 'hours',
  DAY: 'days',
  SEC: 'seconds',
  WTT: 'W',
  KWH: 'kWh',
};

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lower-cased, accents and punctuation folded: for "does this text appear in the main content". */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** "PT1H30M" → "1 hour 30 minutes". */
export function isoDuration(value: string): string | undefined {
  const match = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(
    value.trim(),
  );
  if (!match || !match.slice(1).some(Boolean)) return undefined;
  const names = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  return match
    .slice(1)
    .map((amount, index) =>
      amount && Number(amount) > 0
        ? `${Number(amount)} ${names[index]}${Number(amount) === 1 ? '' : 's'}`
        : '',
    )
    .filter(Boolean)
    .join(' ');
}

function humanLabel(key: string): string {
  return key
    .replace(/^@/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

function money(amount: unknown, currency: unknown): string | undefined {
  if (amount === undefined || amount === null || amount === '') return undefined;
  const number = String(amount).trim();
  const code = typeof currency === 'string' ? currency.toUpperCase() : '';
  const symbol = CURRENCY_SYMBOL[code];
  return symbol ? `${symbol}${number}` : code ? `${number} ${code}` : number;
}

/** Labelled values of a structured entity, nested objects flattened ("offers price", "author name"). */
function entityFacts(entity: StructuredEntity, page: number, order: () => number): Fact[] {
  const facts: Fact[] = [];
  const add = (label: string, value: string) => {
    const text = collapse(value);
    if (!text || text.length > 300 || /^https?:\/\//.test(text)) return;
    facts.push({ source: 'structured', label, value: text, heading: '', order: order(), page });
  };
  const visit = (node: unknown, path: string, depth: number) => {
    if (depth > 4 || node === null || node === undefined) return;
    if (Array.isArray(node)) {
      if (node.every((item) => typeof item === 'string' || typeof item === 'number'))
        add(path, node.join(', '));
      else node.slice(0, 10).forEach((item) => visit(item, path, depth + 1));
      return;
    }
    if (typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const type = String(record['@type'] ?? '');
      if ('price' in record || 'lowPrice' in record) {
        const value = money(record['price'] ?? record['lowPrice'], record['priceCurrency']);
        if (value) add(`${path} price`.trim(), value);
      }
      if ('value' in record && ('unitCode' in record || 'unitText' in record)) {
        const unit = String(
          record['unitText'] ?? UNIT_CODES[String(record['unitCode'])] ?? record['unitCode'] ?? '',
        );
        add(path, `${record['value']} ${unit}`.trim());
        return;
      }
      if (
        typeof record['name'] === 'string' &&
        /Person|Organization|Brand|Place|Corporation|LocalBusiness/.test(type) &&
        path
      )
        add(path, record['name'] as string);
      for (const [key, value] of Object.entries(record)) {
        if (
          key.startsWith('@') ||
          key === 'price' ||
          key === 'priceCurrency' ||
          /image|logo|url|sameAs|potentialAction/i.test(key)
        )
          continue;
        visit(value, `${path} ${humanLabel(key)}`.trim(), depth + 1);
      }
      return;
    }
    let text = String(node);
    const duration = isoDuration(text);
    if (duration) text = duration;
    else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) text = text.slice(0, 10);
    else if (/^https?:\/\/schema\.org\//.test(text)) text = humanLabel(text.replace(/^.*\//, ''));
    add(path, text);
  };
  visit(entity.properties, '', 0);
  return facts;
}

type HtmlElement = ReturnType<typeof parseHTML>['document']['documentElement'];

/** Text of an element; inline code stays in backticks (a path or an address is a value). */
function cellText(element: HtmlElement): string {
  const html = element.innerHTML ?? '';
  if (!/<code\b/i.test(html)) return collapse((element.textContent ?? '').replace(/\u00a0/g, ' '));
  const { document } = parseHTML(
    `<div>${html.replace(/<code\b[^>]*>/gi, '`').replace(/<\/code>/gi, '`')}</div>`,
  );
  return collapse((document.documentElement.textContent ?? '').replace(/\u00a0/g, ' '));
}

/** Tables and definition lists of the raw HTML (their structure is lost in markdown). */
function htmlFacts(document: PageDocument, page: number, order: () => number): Fact[] {
  const facts: Fact[] = [];
  const headingOf = (element: HtmlElement): string => {
    let node: HtmlElement | null = element;
    while (node) {
      let sibling = node.previousElementSibling as HtmlElement | null;
      while (sibling) {
        if (/^H[1-6]$/.test(sibling.tagName)) return cellText(sibling);
        sibling = sibling.previousElementSibling as HtmlElement | null;
      }
      node = node.parentElement as HtmlElement | null;
    }
    return '';
  };
  for (const table of Array.from(document.querySelectorAll('table')) as HtmlElement[]) {
    const rows = (Array.from(table.querySelectorAll('tr')) as HtmlElement[]).map((row) =>
      (Array.from(row.children) as HtmlElement[]).filter((cell) => /^T[HD]$/.test(cell.tagName)),
    );
    if (rows.length === 0) continue;
    const heading = headingOf(table);
    const first = rows[0];
    const headerRow =
      first.length > 1 &&
      first.every((cell) => cell.tagName === 'TH') &&
      rows.slice(1).some((row) => row.some((cell) => cell.tagName === 'TD'));
    const header = headerRow ? first.map(cellText) : [];
    for (const row of headerRow ? rows.slice(1) : rows) {
      const cells = row.map(cellText);
      if (cells.length < 2) continue;
      const rowLabel = cells[0];
      for (let column = 1; column < cells.length; column += 1) {
        const columnLabel = header[column] ?? '';
        // A generic "Value" header adds nothing to the row's own label.
        const label =
          columnLabel && !/^(value|details?|specification|info)$/i.test(columnLabel)
            ? `${rowLabel} | ${columnLabel}`
            : rowLabel;
        // The first column's header names what the rows are ("Plan"): context, like a heading.
        const context = header[0] ? `${heading} ${header[0]}`.trim() : heading;
        facts.push({ source: 'table', label, value: cells[column], heading: context, order: order(), page });
      }
    }
  }
  // Bylines and datelines ("Published 22 June 2025 · Written by Hanna Vogel") often sit outside
  // the main content: they are the article's metadata.
  const seen = new Set<string>();
  for (const element of Array.from(
    document.querySelectorAll(
      '[class*="byline" i], [class*="dateline" i], [class*="article-meta" i], [class*="post-meta" i], [class*="entry-meta" i], [class*="article-info" i], [class*="author" i], [class*="published" i]',
    ),
  ) as HtmlElement[]) {
    if (element.closest('nav, footer, aside, [class*="related" i], [class*="comment" i]')) continue;
    const text = collapse(
      (Array.from(element.querySelectorAll('*')) as HtmlElement[]).length
        ? (element.innerHTML ?? '')
            .replace(/<[^>]+>/g, ' · ')
            .replace(/(\s*·\s*)+/g, ' · ')
            .replace(/^\s*·\s*|\s*·\s*$/g, '')
        : cellText(element),
    );
    if (!text || text.length > 160 || seen.has(text)) continue;
    seen.add(text);
    facts.push({ source: 'structured', label: 'byline', value: text, heading: '', order: order(), page });
  }
  for (const list of Array.from(document.querySelectorAll('dl')) as HtmlElement[]) {
    const heading = headingOf(list);
    let term = '';
    for (const child of Array.from(list.querySelectorAll('dt, dd')) as HtmlElement[]) {
      if (child.tagName === 'DT') term = cellText(child);
      else if (term)
        facts.push({
          source: 'definition',
          label: term,
          value: cellText(child),
          heading,
          order: order(),
          page,
        });
    }
  }
  return facts;
}

/** Readable text of a markdown line with inline code kept in backticks (paths, addresses, keys are values). */
function keepCode(line: string): string {
  const spans: string[] = [];
  const protectedLine = line.replace(/`([^`\n]+)`/g, (_match, code: string) => `⟦${spans.push(code) - 1}⟧`);
  return readableText(protectedLine).replace(
    /⟦(\d+)⟧/g,
    (_match, index: string) => `\`${spans[Number(index)]}\``,
  );
}

/** Splits a line into its "A · B · C" parts. */
function segmentsOf(line: string): string[] {
  return line
    .split(/\s+[·•|]\s+|\s+[–—]\s+(?=[A-Z][^:]{0,30}:)|;\s+(?=[A-Z][^:]{0,30}:)/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Facts of the page's markdown: labelled lines and every sentence, under their headings. */
function markdownFacts(markdown: string, page: number, order: () => number): Fact[] {
  const facts: Fact[] = [];
  let heading = '';
  let fence = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence || !line || /^\|?\s*:?-{3,}/.test(line)) continue;
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(line);
    if (headingMatch) {
      heading = collapse(readableText(headingMatch[1]));
      facts.push({ source: 'text', label: '', value: heading, heading, order: order(), page });
      continue;
    }
    const struck = /~~[^~]+~~/.test(line);
    const text = collapse(keepCode(line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')).replace(/~~/g, ''));
    if (!text) continue;
    // A short line that asks a question heads the answer below it (FAQ summaries, bold questions).
    if (text.endsWith('?') && text.split(' ').length <= 16 && !line.startsWith('|')) {
      heading = text;
      continue;
    }
    if (line.startsWith('|')) {
      facts.push({ source: 'text', label: '', value: text, heading, order: order(), page });
      continue;
    }
    for (const segment of segmentsOf(text)) {
      const labelled = LABELLED.exec(segment);
      if (labelled && labelled[1].split(/\s+/).length <= 6 && !/https?$/i.test(labelled[1]))
        facts.push({
          source: 'labelled',
          label: labelled[1],
          value: labelled[2].replace(/\.$/, ''),
          heading,
          order: order(),
          page,
        });
    }
    for (const sentence of sentences(text))
      facts.push({
        source: 'text',
        label: '',
        value: sentence,
        heading,
        order: order(),
        page,
        ...(struck ? { struck } : {}),
      });
  }
  return facts;
}

/**
 * Everything a page states that can answer a question: structured data (JSON-LD, microdata, and
 * the DOM's price/byline cues), tables and definition lists from the HTML — kept only when their
 * text is in the page's main content (the markdown) — and the markdown's labelled lines and sentences.
 */
export function pageFacts(input: FactPage, page = 0): PageFacts {
  let counter = 0;
  const order = () => counter++;
  const markdownFold = foldText(readableText(input.markdown));
  const inMain = (text: string) => !markdownFold || markdownFold.includes(foldText(text));
  // One parse of the page for its structured data, its price cue and its tables (three parses cost
  // three times as much on a large page).
  const document = input.html ? parsePage(input.html) : undefined;
  const entities = document ? structuredDataOf(document) : [];
  const priceCue = document ? singlePrice(document) : false;
  const facts: Fact[] = [];
  for (const entity of entities) {
    if (entity.source === 'json-ld' || entity.source === 'microdata')
      for (const fact of entityFacts(entity, page, order)) facts.push(fact);
    else if (entity.source === 'dom') {
      for (const key of ['price', 'author', 'datePublished', 'brand', 'sku', 'availability'])
        // Bylines and dates are page metadata (often outside the main content); prices must be in it.
        if (
          typeof entity.properties[key] === 'string' &&
          (key === 'author' ||
            key === 'datePublished' ||
            inMain(String(entity.properties[key]).slice(0, 40))) &&
          (key !== 'price' || priceCue)
        )
          facts.push({
            source: 'structured',
            label: humanLabel(key),
            value: firstMoneyOr(String(entity.properties[key])),
            heading: '',
            order: order(),
            page,
          });
    } else if (entity.source === 'meta') {
      for (const [key, value] of Object.entries(entity.properties))
        if (
          /published_time|modified_time|^author$|publish_date|^date$/i.test(key) &&
          typeof value === 'string'
        )
          facts.push({
            source: 'structured',
            label: humanLabel(key.replace(/^.*:/, '')),
            value: /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value,
            heading: '',
            order: order(),
            page,
          });
    }
  }
  if (document) {
    // Checked against the main content in one pass: one search of the page's text per fact is
    // quadratic on a page of tens of thousands of labelled values.
    const labelled = htmlFacts(document, page, order);
    const folded = labelled.map((fact) =>
      fact.label === 'byline' ? [] : [foldText(fact.value), foldText(fact.label.split(' | ')[0])],
    );
    const present = markdownFold ? containedIn(markdownFold, folded.flat()) : undefined;
    labelled.forEach((fact, index) => {
      if (!present || folded[index].every((needle) => present.has(needle))) facts.push(fact);
    });
  }
  for (const fact of markdownFacts(input.markdown, page, order)) facts.push(fact);
  const headline = /^#\s+(.+)$/m.exec(input.markdown)?.[1]?.trim() ?? '';
  markContext(facts, collapse(readableText(headline)));
  const structuredText = facts
    .filter((fact) => fact.source === 'structured')
    .map((fact) => `${fact.label} ${fact.value}`)
    .join(' ');
  return {
    facts,
    headline: collapse(readableText(headline)),
    title: input.title ?? '',
    vocabulary: `${input.title ?? ''}\n${readableText(input.markdown)}\n${structuredText}`,
    entities,
  };
}

/** Marks the facts under the page's title, and the text lines that are its byline or dateline. */
function markContext(facts: Fact[], headline: string): void {
  const authors = facts
    .filter((fact) => fact.source === 'structured' && /^(author|author name|byline)$/i.test(fact.label))
    .map((fact) =>
      fact.value
        .replace(/^by\s+/i, '')
        .split(/\s*[,·|]\s*/)[0]
        .trim(),
    )
    .filter((name) => name.length > 3);
  for (const fact of facts) {
    if (headline && fact.heading === headline) fact.underTitle = true;
    if (fact.source !== 'text' || fact.value.split(/\s+/).length > 14) continue;
    const dated = findValues(fact.value).some((value) => value.kind === 'date');
    if (
      dated &&
      (authors.some((name) => fact.value.includes(name)) ||
        /^(by|published|posted|updated|written by)\b|\bmin(?:ute)?s? read\b/i.test(fact.value))
    )
      fact.byline = true;
  }
}

/**
 * Whether the page marks one price (an element whose class or id says "price", outside related
 * items): the DOM's price cue is then the page's price. Without such an element the cue is only the
 * first amount of the text (a headline's "€340m"), and with several (a pricing page's plans) it is
 * one price among others; the sentences and cards that hold them answer instead.
 */
function singlePrice(document: PageDocument): boolean {
  const elements = (
    Array.from(document.querySelectorAll('[class*="price" i], [id*="price" i]')) as HtmlElement[]
  ).filter(
    (element) =>
      /\d/.test(element.textContent ?? '') &&
      !element.closest('.related, [class*="related" i], [class*="recommend" i], nav, footer, aside, header'),
  );
  // Leaves: price elements holding no other one. Every ancestor of a price element is marked once
  // (a walk stops at a marked one): linear, where comparing each pair took seconds on thousands.
  const holders = new Set<HtmlElement>();
  for (const element of elements)
    for (let parent = element.parentElement; parent && !holders.has(parent); parent = parent.parentElement)
      holders.add(parent);
  const leaves = elements.filter((element) => !holders.has(element));
  const amounts = new Set(leaves.map((element) => firstMoneyOr(collapse(element.textContent ?? ''))));
  return amounts.size === 1;
}

/** A DOM price cue may hold the new and the old price ("€89.95 €109.00"): the first amount. */
function firstMoneyOr(text: string): string {
  return (
    /(?:[$€£¥]\s?\d[\d,.]*(?:\s?(?:million|billion|bn|m|k)\b)?|\d[\d,.]*\s?(?:€|EUR|USD|GBP))/.exec(
      text,
    )?.[0] ?? text
  );
}
