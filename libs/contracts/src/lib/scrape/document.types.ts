/** Response shapes of a scraped document (spec §2.2–§2.8, compat §5). Plain types: responses are not validated. */

export interface DocumentMetadata {
  title?: string | string[];
  description?: string | string[];
  language?: string | string[] | null;
  keywords?: string | string[];
  ogLocaleAlternate?: string[];
  sourceURL: string;
  url: string;
  statusCode: number;
  contentType?: string;
  scrapeId?: string;
  error?: string | null;
  numPages?: number;
  totalPages?: number;
  proxyUsed?: 'basic' | 'stealth';
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  creditsUsed?: number;
  timezone?: string;
  engine?: string;
  engineFallback?: string;
  concurrencyLimited?: boolean;
  concurrencyQueueDurationMs?: number;
  [key: string]: unknown;
}

export interface ActionResults {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: string[];
}

export interface ChangeTrackingResult {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: string | null;
  json?: Record<string, unknown> | null;
}

export interface PageMarkdown {
  pageNumber: number;
  markdown: string;
}

export type BlockType =
  | 'title'
  | 'section_header'
  | 'text'
  | 'table'
  | 'formula'
  | 'figure'
  | 'caption'
  | 'page_number'
  | 'page_header'
  | 'page_footer'
  | 'list';

export interface LayoutBlock {
  id: string;
  type: BlockType | string;
  label: string | null;
  bbox: [number, number, number, number] | null;
  content: string;
  markdownSpan: [number, number] | null;
  readingOrder: number;
  source: string | null;
  confidence: { layout: number | null; ocr: number | null };
}

export interface PageBlocks {
  pageNumber: number;
  width: number | null;
  height: number | null;
  status: 'ok' | 'partial' | 'failed';
  items: LayoutBlock[];
}

export interface ScrapeDocument {
  markdown?: string;
  summary?: string | null;
  html?: string | null;
  rawHtml?: string | null;
  rawBase64?: string | null;
  screenshot?: string | null;
  audio?: string | null;
  video?: string | null;
  links?: string[];
  images?: string[];
  answer?: string | null;
  highlights?: string | null;
  json?: unknown;
  attributes?: { selector: string; attribute: string; values: string[] }[];
  actions?: ActionResults | null;
  changeTracking?: ChangeTrackingResult | null;
  branding?: Record<string, unknown> | null;
  product?: Record<string, unknown> | null;
  menu?: Record<string, unknown> | null;
  pages?: PageMarkdown[] | null;
  blocks?: PageBlocks[] | null;
  warning?: string | null;
  metadata: DocumentMetadata;
}

export interface ScrapeResponse {
  success: true;
  data: ScrapeDocument;
  scrape_id?: string;
}
