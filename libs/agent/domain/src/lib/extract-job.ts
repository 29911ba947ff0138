import {
  type AgentRunOutcome,
  type ExtractJobStatus,
  type ExtractStatusResponse,
  SITE_GLOB_SUFFIX,
  type WebhookSettings,
} from '@quarry/contracts';

import type { AgentLimits, PageRecord } from './planner';
import type { RunState } from './run-state';

/**
 * Extract jobs (docs/extract.md) are runs of the agent machinery with a fixed plan: read the given
 * pages (a `…/*` URL stands for the pages a map of that site finds, web search adds pages when
 * enabled) in one round, then extract to the schema. These pure helpers hold what differs.
 */

export type RunKind = 'agent' | 'extract';

/** The base URL a trailing `/*` glob stands for, or undefined for an ordinary URL. */
export function siteGlobBase(url: string): string | undefined {
  const trimmed = url.trim();
  if (!trimmed.endsWith(SITE_GLOB_SUFFIX)) return undefined;
  const base = trimmed.slice(0, -SITE_GLOB_SUFFIX.length);
  return /^https?:\/\/[^/]+/i.test(base) ? base : undefined;
}

/** One round that reads every page of the job, at most `limit` and the operator's AGENT_MAX_PAGES. */
export function extractLimits(configuredMaxPages: number, limit?: number): AgentLimits {
  const maxPages = Math.max(1, Math.min(limit ?? configuredMaxPages, configuredMaxPages));
  return { maxPages, pagesPerRound: maxPages, maxRounds: 1 };
}

/** The task given to the extraction when the caller sent only a schema (or nothing but URLs). */
export function extractTask(prompt: string, hasSchema: boolean): string {
  if (prompt.trim()) return prompt;
  return hasSchema
    ? 'Extract the data described by the JSON schema from the pages.'
    : 'Extract the main information of the pages.';
}

export const EXTRACT_STRATEGY =
  'Extract job: read the given pages (a URL ending in /* stands for the pages a map of that site finds; web search adds pages when enabled; ' +
  'without URLs, the best matches of this team’s index) in one round through the scrape path, then extract the result to the schema ' +
  '(with a language model when one is configured, else from the pages’ structured data or best passage, labelled in warning).';

/** Why a job ends without reading anything. */
export function nothingToReadMessage(hadUrls: boolean): string {
  return hadUrls
    ? 'The extract job found no page to read: the given URLs and the sites they name yielded nothing.'
    : 'The extract job found no page to read: no URLs were given and neither this team’s index nor web search found a page matching the prompt.';
}

/** Why a job ends when none of its pages could be read. */
export function unreadableMessage(pages: readonly PageRecord[]): string {
  const reasons = [...new Set(pages.map((page) => page.error).filter(Boolean))].slice(0, 3).join('; ');
  return `None of the ${pages.length} page(s) of the extract job could be read${reasons ? ` (${reasons})` : ''}.`;
}

/** The status a poll reports (docs/extract.md). */
export function extractStatusOf(state: RunState, outcome: AgentRunOutcome | null): ExtractJobStatus {
  if (state === 'completed') return 'completed';
  if (state === 'failed') return outcome === 'cancelled' ? 'cancelled' : 'failed';
  return 'processing';
}

/** What a status body is made of (an extract job's run, or the run as it is about to finish). */
export interface ExtractJobView {
  state: RunState;
  outcome: AgentRunOutcome | null;
  data: unknown;
  errorMessage: string | null;
  warning: string | null;
  sources: unknown;
  expiresAt: Date;
  creditsSpent: number;
  showSources: boolean;
}

/** `GET /v2/extract/:jobId` (docs/extract.md): `success` is false only for a failed job; `data` is `[]` until completed. */
export function extractStatusBody(job: ExtractJobView, tokensUsed: number): ExtractStatusResponse {
  const status = extractStatusOf(job.state, job.outcome);
  const completed = status === 'completed';
  const body: ExtractStatusResponse = {
    success: status !== 'failed',
    data: completed ? (job.data ?? null) : [],
    status,
    expiresAt: job.expiresAt.toISOString(),
    tokensUsed,
    creditsUsed: completed ? job.creditsSpent : 0,
  };
  if (status === 'failed' || status === 'cancelled')
    body.error = job.errorMessage ?? 'The extract job failed.';
  if (job.warning) body.warning = job.warning;
  if (completed && job.showSources && job.sources && typeof job.sources === 'object')
    body.sources = job.sources as Record<string, string[]>;
  return body;
}

/** A webhook outbox row to write with the state change that causes it (docs/crawl.md#webhooks). */
export interface WebhookEventRow {
  type: string;
  payload: { success: boolean; error?: string; document?: unknown };
}

/**
 * `extract.started|completed|failed`, filtered by the caller's `events`. The completed event
 * carries the job's final status body as `data[0]` (as the reference sends its result).
 */
export function extractWebhookEvents(
  webhook: WebhookSettings | undefined,
  event: 'started' | 'completed' | 'failed',
  detail: { error?: string; result?: unknown } = {},
): WebhookEventRow[] {
  if (!webhook || !webhook.events.includes(event)) return [];
  switch (event) {
    case 'started':
      return [{ type: 'extract.started', payload: { success: true } }];
    case 'completed':
      return [{ type: 'extract.completed', payload: { success: true, document: detail.result } }];
    case 'failed':
      return [
        {
          type: 'extract.failed',
          payload: { success: false, error: detail.error ?? 'The extract job failed' },
        },
      ];
  }
}

/**
 * `showSources`: for each top-level field of the result, the pages whose text contains one of
 * its values (strings and numbers of at least two characters, case-insensitive). A field whose
 * values appear on no page lists every page read: the value came from them, but no page quotes it.
 */
export function findSources(
  value: unknown,
  pages: readonly { url: string; text: string }[],
): Record<string, string[]> {
  const fields =
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
      : [['result', value] as [string, unknown]];
  const texts = pages.map((page) => ({ url: page.url, text: page.text.toLowerCase() }));
  const all = [...new Set(pages.map((page) => page.url))];
  const sources: Record<string, string[]> = {};
  for (const [field, fieldValue] of fields) {
    const needles = leaves(fieldValue);
    const found = texts
      .filter((page) => needles.some((needle) => page.text.includes(needle)))
      .map((page) => page.url);
    sources[field] = found.length ? [...new Set(found)] : all;
  }
  return sources;
}

function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value).trim().toLowerCase();
    if (text.length >= 2) out.push(text);
  } else if (Array.isArray(value)) value.forEach((item) => leaves(item, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => leaves(item, out));
  return out;
}
