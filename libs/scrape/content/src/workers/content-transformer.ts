import { join } from 'node:path';

import { AppError } from '@quarry/contracts';
import {
  WorkerCrashedError,
  type WorkerEntry,
  WorkerPool,
  type WorkerPoolOptions,
  WorkerTaskError,
  WorkerTimeoutError,
} from '@quarry/platform/workers';

import { DEFAULT_PAGE_LIMITS, type PageLimits, PageTooLargeError } from '../limits/page-limits.util';
import type { ContentOptions, OutputFormat } from '../transform/transform.types';
import { type PageInput, type TransformedPage, transformPage } from './transform-page.util';

export type ContentCall =
  | { op: 'ping' }
  | { op: 'transform'; input: PageInput; formats: OutputFormat[]; options: ContentOptions }
  | { op: 'task'; name: string; args: unknown[] };

/**
 * Named synchronous functions of a page that a content worker also runs (the format extractors and
 * offline answers of `@quarry/scrape/formats`): arguments and results cross the process boundary, so
 * both are plain data.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of functions of any signature
export type PageTaskTable = Readonly<Record<string, (...args: any[]) => unknown>>;

/** The worker entry that serves only this library's calls (no page tasks). */
export const CONTENT_WORKER_ENTRY: WorkerEntry = {
  bundle: 'content-worker.js',
  source: join(__dirname, 'content-worker.main.ts'),
};

/** Turns fetched pages into formats, within `deadline` (epoch ms) when the implementation can stop. */
export interface ContentTransformer {
  transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
    deadline: number,
  ): Promise<TransformedPage>;
  /** Runs the page task `name` (see PageTaskTable) on `args`, within `deadline` when the implementation can stop. */
  runTask(name: string, args: readonly unknown[], deadline: number): Promise<unknown>;
  close(): Promise<void>;
}

/** Runs `name` from `tasks` on the calling thread. */
export function runTaskInline(tasks: PageTaskTable, name: string, args: readonly unknown[]): unknown {
  const task = Object.hasOwn(tasks, name) ? tasks[name] : undefined;
  if (!task) throw new Error(`unknown page task: ${name}`);
  return task(...args);
}

/**
 * The API error of a page refused for its size (`PageTooLargeError`: on the HTTP path, in the browser
 * or in a content worker) or that a content worker could not survive: 422, never charged.
 */
export function pageTooLarge(message: string): AppError {
  return new AppError('SCRAPE_PAGE_TOO_LARGE', { message });
}

/** On the calling thread (tests, tools, `CONTENT_WORKERS=0`). */
export class InlineContentTransformer implements ContentTransformer {
  constructor(
    private readonly limits: PageLimits = DEFAULT_PAGE_LIMITS,
    private readonly tasks: PageTaskTable = {},
  ) {}

  async transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
  ): Promise<TransformedPage> {
    try {
      return transformPage(input, formats, options, this.limits);
    } catch (error) {
      if (error instanceof PageTooLargeError) throw pageTooLarge(error.message);
      throw error;
    }
  }

  async runTask(name: string, args: readonly unknown[]): Promise<unknown> {
    return runTaskInline(this.tasks, name, args);
  }

  async close(): Promise<void> {
    return undefined;
  }
}

export interface WorkerContentOptions {
  /** Worker processes. */
  workers: number;
  /** V8 heap limit of each worker process, in MiB. */
  memoryMb: number;
  limits?: PageLimits;
  /** The worker script: by default this library's (transforms only); one that also serves page tasks otherwise. */
  entry?: WorkerEntry;
  onEvent?: WorkerPoolOptions['onEvent'];
}

/**
 * On a pool of supervised worker processes (`content-worker.main.ts`): the event loop only moves
 * bytes in and results out, several pages are transformed at once on several cores, and a page that
 * would run past the job's deadline or exhaust a worker's memory costs that worker process — killed
 * and replaced — never the process that owns the pool.
 */
export class WorkerContentTransformer implements ContentTransformer {
  private readonly pool: WorkerPool<ContentCall>;

  constructor(options: WorkerContentOptions) {
    this.pool = new WorkerPool<ContentCall>({
      name: 'Content worker',
      entry: options.entry ?? CONTENT_WORKER_ENTRY,
      size: options.workers,
      memoryMb: options.memoryMb,
      data: { limits: options.limits ?? DEFAULT_PAGE_LIMITS },
      outOfMemoryMessage: `page too large to process: it needed more memory than a content worker may use (CONTENT_WORKER_MEMORY_MB ${options.memoryMb})`,
      onEvent: options.onEvent,
    });
  }

  /** Starts the workers, so the first pages do not pay for loading the pipeline. */
  async warm(timeoutMs = 60_000): Promise<void> {
    await Promise.all(Array.from({ length: this.pool.size }, () => this.pool.run({ op: 'ping' }, timeoutMs)));
  }

  /** Process ids of the live workers (tests, diagnostics). */
  pids(): number[] {
    return this.pool.pids();
  }

  transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
    deadline: number,
  ): Promise<TransformedPage> {
    return this.call<TransformedPage>(
      { op: 'transform', input, formats: [...formats], options },
      deadline,
      'turned into content',
    );
  }

  runTask(name: string, args: readonly unknown[], deadline: number): Promise<unknown> {
    return this.call({ op: 'task', name, args: [...args] }, deadline, `read (${name})`);
  }

  /**
   * One call within the job's deadline: past it the worker is killed (and replaced) and the job
   * times out; a page that exhausts or crashes a worker is the page's failure, never the caller's.
   */
  private async call<T>(call: ContentCall, deadline: number, doing: string): Promise<T> {
    const budgetMs = Math.max(1_000, deadline - Date.now());
    try {
      return await this.pool.run<T>(call, budgetMs);
    } catch (error) {
      if (error instanceof WorkerTimeoutError) {
        if (Date.now() >= deadline) throw new AppError('SCRAPE_TIMEOUT');
        throw new AppError('SCRAPE_SITE_ERROR', {
          message: `The page could not be ${doing} within ${budgetMs} ms`,
        });
      }
      if (error instanceof WorkerTaskError && error.reason === 'page_too_large')
        throw pageTooLarge(error.message);
      if (error instanceof WorkerCrashedError)
        throw error.outOfMemory
          ? pageTooLarge(error.message)
          : new AppError('SCRAPE_SITE_ERROR', { message: 'The page crashed its content worker' });
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
