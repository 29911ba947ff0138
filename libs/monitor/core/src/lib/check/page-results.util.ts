import {
  type MonitorPageDiff,
  type MonitorPageStatus,
  type MonitorSummary,
  type ScrapeDocument,
  urlKey,
} from '@quarry/contracts';

import { EMPTY_SUMMARY, type PageResult, type PreviousPage } from '../monitor.types';
import { jsonFieldDiff, parseGitDiff } from './page-diff.util';
import type { ComparisonMode } from './target-plan';

const GONE = new Set([404, 410]);

/** A URL's normalised key (falls back to the text itself for URLs that do not parse). */
export function pageKey(url: string): string {
  try {
    return urlKey(url);
  } catch {
    return url;
  }
}

/**
 * The result of one scraped page: its status against the monitor's previous sighting and its
 * `diff`/`snapshot` in the shape its comparison mode asks for (see ComparisonMode).
 */
export function pageFromDocument(
  targetId: string,
  document: ScrapeDocument,
  previous: PreviousPage | undefined,
  mode: ComparisonMode,
): PageResult {
  const metadata = document.metadata;
  const url = metadata.sourceURL ?? metadata.url ?? '';
  const statusCode = metadata.statusCode ?? null;
  const base: PageResult = {
    targetId,
    url,
    urlKey: pageKey(url),
    status: 'same',
    previousScrapeId: previous?.currentScrapeId ?? null,
    currentScrapeId: typeof metadata.scrapeId === 'string' ? metadata.scrapeId : null,
    statusCode,
    error: null,
    metadata: pageMetadata(document),
    judgment: null,
    diff: null,
    snapshot: null,
  };
  const tracked = document.changeTracking ?? undefined;
  if ((statusCode !== null && GONE.has(statusCode)) || tracked?.changeStatus === 'removed')
    return { ...base, status: 'removed' };
  if (statusCode !== null && statusCode >= 400)
    return { ...base, status: 'error', error: metadata.error ?? `HTTP ${statusCode}` };
  const seenBefore = previous !== undefined && previous.status !== 'removed';

  if (mode === 'extraction' || mode === 'mixed') {
    const current = document.json ?? null;
    const snapshot = { json: current };
    if (!seenBefore || previous.snapshot === null) return { ...base, status: 'new', snapshot };
    const fields = jsonFieldDiff(previous.snapshot.json ?? null, current);
    const textChanged = mode === 'mixed' && tracked?.changeStatus === 'changed' && !!tracked.diff;
    if (!fields.differs && !textChanged) return { ...base, status: 'same', snapshot };
    const diff: MonitorPageDiff = { json: fields.fields };
    if (mode === 'mixed' && tracked?.diff) diff.text = tracked.diff;
    return { ...base, status: 'changed', diff, snapshot };
  }

  const status: MonitorPageStatus =
    !seenBefore || !tracked || tracked.changeStatus === 'new' ? 'new' : tracked.changeStatus;
  if (status !== 'changed' || !tracked) return { ...base, status };
  if (mode === 'trackedJson') {
    return {
      ...base,
      status,
      diff: { ...(tracked.diff ? { text: tracked.diff } : {}), json: tracked.json ?? {} },
    };
  }
  return {
    ...base,
    status,
    diff: tracked.diff ? { text: tracked.diff, json: parseGitDiff(tracked.diff) } : null,
  };
}

export function errorPage(
  targetId: string,
  url: string,
  error: string,
  previous?: PreviousPage,
  statusCode: number | null = null,
): PageResult {
  return {
    targetId,
    url,
    urlKey: pageKey(url),
    status: 'error',
    previousScrapeId: previous?.currentScrapeId ?? null,
    currentScrapeId: null,
    statusCode,
    error,
    metadata: null,
    judgment: null,
    diff: null,
    snapshot: null,
  };
}

/** A page an earlier check saw that is gone now (a crawl no longer reaches it, or it answers 404/410). */
export function removedPage(
  targetId: string,
  previous: PreviousPage,
  statusCode: number | null = null,
  error: string | null = null,
): PageResult {
  return {
    targetId,
    url: previous.url,
    urlKey: previous.urlKey,
    status: 'removed',
    previousScrapeId: previous.currentScrapeId,
    currentScrapeId: null,
    statusCode,
    error,
    metadata: null,
    judgment: null,
    diff: null,
    snapshot: null,
  };
}

export function summarise(pages: readonly PageResult[]): MonitorSummary {
  const summary = { ...EMPTY_SUMMARY, totalPages: pages.length };
  for (const page of pages) summary[page.status] += 1;
  return summary;
}

function pageMetadata(document: ScrapeDocument): Record<string, unknown> {
  const metadata = document.metadata;
  const picked: Record<string, unknown> = {};
  for (const key of [
    'title',
    'description',
    'language',
    'url',
    'sourceURL',
    'statusCode',
    'contentType',
    'scrapeId',
    'creditsUsed',
  ] as const) {
    if (metadata[key] !== undefined && metadata[key] !== null) picked[key] = metadata[key];
  }
  if (document.changeTracking?.previousScrapeAt !== undefined)
    picked['previousScrapeAt'] = document.changeTracking.previousScrapeAt;
  if (document.warning) picked['warning'] = document.warning;
  return picked;
}
