import { findFormat, type FormatObject, hasFormat, type ScrapeDocument } from '@quarry/contracts';

/**
 * The one table of prices, in credits (docs/scraping.md#credits). Every charge is computed from it.
 */
export const PRICES = {
  /** A scraped page (HTML, JSON, text, image…). */
  page: 1,
  /** A parsed PDF page (the first page is the base `page` credit). */
  pdfPage: 1,
  /** A PDF returned base64-encoded (`parsers: []`), whatever its length. */
  rawPdf: 1,
  /** Language-model formats: json (also change tracking in json mode), summary, question/query, highlights. */
  jsonExtraction: 4,
  /**
   * `deterministicJson` (docs/scraping.md#credits: 3 per page, 10 when a script is generated): our extractor is
   * structured data + schema field matching and never generates a script, so always the 3-credit case.
   */
  deterministicJson: 2,
  summary: 0,
  question: 4,
  highlights: 4,
  /** `checkPromptInjection` (top level, or on the json format): the page is scanned once. */
  promptInjectionCheck: 4,
  /** PII redaction pass. */
  redactPII: 4,
  /** Zero data retention handling. */
  zeroDataRetention: 1,
  /** Lockdown answers: a hit costs this in total, a miss the base page credit. */
  lockdownHit: 5,
  lockdownMiss: 1,
  /** Map call. */
  map: 1,
  /** Search: per started block of 10 results. */
  searchPer10Results: 2,
  /** Extract job (docs/extract.md): its final extraction, on top of every page read at that page's scrape price. */
  extract: 4,
  /** One interact call (code or prompt) on a scraped page; stopping the session is free. */
  interact: 1,
} as const;

export interface ScrapeChargeInput {
  formats: readonly FormatObject[];
  zeroDataRetention: boolean;
  redactPII: boolean | object;
  lockdown: boolean;
  /** Parsed PDF pages when the target was a PDF parsed to markdown. */
  pdfPages?: number;
  /** True when the PDF was returned base64-encoded. */
  rawPdf?: boolean;
  cacheHit?: boolean;
  /** The request's top-level `checkPromptInjection` (the json format's is read from `formats`). */
  checkPromptInjection?: boolean;
}

/** Credits for one scraped page, with the surcharges of its options. */
export function scrapeCredits(input: ScrapeChargeInput): number {
  if (input.lockdown) return input.cacheHit ? PRICES.lockdownHit : PRICES.lockdownMiss;
  // A base64 PDF is flat (docs/scraping.md#credits): the language-model formats and redactPII are not applied to it.
  if (input.rawPdf) return PRICES.rawPdf + (input.zeroDataRetention ? PRICES.zeroDataRetention : 0);
  let credits = PRICES.page;
  if (input.pdfPages && input.pdfPages > 1) credits += (input.pdfPages - 1) * PRICES.pdfPage;
  const formats = input.formats;
  const changeTracking = findFormat(formats, 'changeTracking');
  if (hasFormat(formats, 'json') || changeTracking?.modes.includes('json')) {
    credits += PRICES.jsonExtraction;
  } else if (hasFormat(formats, 'deterministicJson')) {
    credits += PRICES.deterministicJson;
  }
  if (hasFormat(formats, 'summary')) credits += PRICES.summary;
  if (hasFormat(formats, 'question') || hasFormat(formats, 'query')) credits += PRICES.question;
  if (hasFormat(formats, 'highlights')) credits += PRICES.highlights;
  if (input.redactPII) credits += PRICES.redactPII;
  const json = findFormat(formats, 'json') ?? findFormat(formats, 'deterministicJson');
  if ((input.checkPromptInjection || json?.checkPromptInjection) && !hasFormat(formats, 'rawBase64')) {
    credits += PRICES.promptInjectionCheck;
  }
  if (input.zeroDataRetention) credits += PRICES.zeroDataRetention;
  return credits;
}

/**
 * The PDF part of a stored document's price, read back from the document: a cache hit of a parsed
 * PDF costs its pages again (docs/scraping.md#credits), a cached base64 PDF the flat price.
 */
export function documentBilling(document: ScrapeDocument): Pick<ScrapeChargeInput, 'pdfPages' | 'rawPdf'> {
  const { contentType, numPages } = document.metadata;
  if (typeof contentType !== 'string' || !contentType.includes('application/pdf')) return {};
  return typeof numPages === 'number' ? { pdfPages: Math.max(1, numPages) } : { rawPdf: true };
}

/** Credits a request must at least have before it starts (402 otherwise). */
export function minimumCredits(count = 1): number {
  return Math.max(1, count) * PRICES.page;
}
