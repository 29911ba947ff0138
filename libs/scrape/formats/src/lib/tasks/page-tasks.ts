import { join } from 'node:path';

import type { WorkerEntry } from '@quarry/platform/workers';
import {
  type ContentTransformer,
  InlineContentTransformer,
  type PageTaskTable,
  runTaskInline,
  type WorkerContentOptions,
  WorkerContentTransformer,
} from '@quarry/scrape/content';
import type { EnrichmentContext } from '@quarry/scrape/engine';

import { offlineAnswer } from '../answer/offline-answer.util';
import { bestPassageScore, extractiveHighlights } from '../answer/passage-ranking.util';
import { removeBoilerplate } from '../clean/boilerplate-filter.util';
import { gitDiff, structuredValues } from '../extractors/change-tracking.util';
import { extractMenu } from '../extractors/menu.extractor';
import { extractProduct } from '../extractors/product.extractor';
import { findPromptInjection } from '../injection/prompt-injection.util';
import { detectPii } from '../pii/pii-detector.util';
import { readStructuredData } from '../structured/structured-data.util';
import { extractiveSummary } from '../summary/extractive-summary.util';

/**
 * The page work of the formats that may cost more than a moment on a large or hostile page (each
 * parses the page or scans its text): run by the content workers (`PAGE_WORKER_ENTRY`), so a page
 * that would hold a worker past its job's deadline is killed with that worker.
 */
export const PAGE_TASKS = {
  product: extractProduct,
  menu: extractMenu,
  structuredValues,
  gitDiff,
  offlineAnswer,
  readStructuredData,
  extractiveSummary,
  extractiveHighlights,
  bestPassageScore,
  detectPii,
  findPromptInjection,
  removeBoilerplate,
} satisfies PageTaskTable;

export type PageTasks = typeof PAGE_TASKS;
export type PageTaskName = keyof PageTasks;

/** Runs one page task of a job and resolves with its value. */
export type PageTaskRunner = <K extends PageTaskName>(
  name: K,
  ...args: Parameters<PageTasks[K]>
) => Promise<ReturnType<PageTasks[K]>>;

/**
 * The page tasks of one job: on `content`'s workers within `deadline` (epoch ms), or on the calling
 * thread when there is no transformer (tests, tools, the agent's own extraction).
 */
export function pageTaskRunner(content: ContentTransformer | undefined, deadline: number): PageTaskRunner {
  return ((name: PageTaskName, ...args: unknown[]) =>
    content
      ? content.runTask(name, args, deadline)
      : Promise.resolve().then(() => runTaskInline(PAGE_TASKS, name, args))) as PageTaskRunner;
}

/** The page tasks of an enricher: on the pipeline's content workers, within the job's deadline. */
export function enrichmentTasks(context: EnrichmentContext): PageTaskRunner {
  return pageTaskRunner(context.content, context.deadline ?? Date.now() + context.timeoutMs);
}

/** The content worker script that also serves PAGE_TASKS (built as the `content-worker` bundle). */
export const PAGE_WORKER_ENTRY: WorkerEntry = {
  bundle: 'content-worker.js',
  source: join(__dirname, 'page-worker.main.ts'),
};

/**
 * A content transformer whose workers also serve PAGE_TASKS: `workers` supervised processes, or the
 * calling thread when that is 0 (`CONTENT_WORKERS=0`).
 */
export function pageWorkTransformer(options: Omit<WorkerContentOptions, 'entry'>): ContentTransformer {
  return options.workers > 0
    ? new WorkerContentTransformer({ ...options, entry: PAGE_WORKER_ENTRY })
    : new InlineContentTransformer(options.limits, PAGE_TASKS);
}
