import { join } from 'node:path';
import { AppError } from '@quarry/contracts';
import {
  WorkerCrashedError,
  WorkerPool,
  WorkerTimeoutError,
  type WorkerPoolOptions,
} from '@quarry/platform/threads';
import type { ContentOptions, OutputFormat } from '../transform/transform.types';
import { transformPage, type PageInput, type TransformedPage } from './transform-page.util';

export type ContentCall =
  { op: 'ping' } | { op: 'transform'; input: PageInput; formats: OutputFormat[]; options: ContentOptions };

/** Turns fetched pages into formats, within `deadline` (epoch ms) when the implementation can stop. */
export interface ContentTransformer {
  transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
    deadline: number,
  ): Promise<TransformedPage>;
  close(): Promise<void>;
}

/** On the calling thread (tests, tools, `CONTENT_WORKER_THREADS=0`). */
export class InlineContentTransformer implements ContentTransformer {
  async transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
  ): Promise<TransformedPage> {
    return transformPage(input, formats, options);
  }

  async close(): Promise<void> {
    return undefined;
  }
}

export interface ThreadedContentOptions {
  threads: number;
  memoryMb: number;
  onEvent?: WorkerPoolOptions['onEvent'];
}

/**
 * On a pool of worker threads (`content-thread.main.ts`): the event loop only moves bytes in and
 * results out, several pages are transformed at once on several cores, and a page that would run
 * past the job's deadline or exhaust a thread's heap loses its thread, not the process.
 */
export class ThreadedContentTransformer implements ContentTransformer {
  private readonly pool: WorkerPool<ContentCall>;

  constructor(options: ThreadedContentOptions) {
    this.pool = new WorkerPool<ContentCall>({
      name: 'Content worker',
      entry: { bundle: 'content-worker.js', source: join(__dirname, 'content-thread.main.ts') },
      size: options.threads,
      memoryMb: options.memoryMb,
      outOfMemoryMessage: 'The page needed more memory than a content worker may use',
      onEvent: options.onEvent,
    });
  }

  /** Starts the threads, so the first pages do not pay for loading the pipeline. */
  async warm(timeoutMs = 60_000): Promise<void> {
    await Promise.all(Array.from({ length: this.pool.size }, () => this.pool.run({ op: 'ping' }, timeoutMs)));
  }

  async transform(
    input: PageInput,
    formats: readonly OutputFormat[],
    options: ContentOptions,
    deadline: number,
  ): Promise<TransformedPage> {
    const budgetMs = Math.max(1_000, deadline - Date.now());
    try {
      return await this.pool.run<TransformedPage>(
        { op: 'transform', input, formats: [...formats], options },
        budgetMs,
      );
    } catch (error) {
      if (error instanceof WorkerTimeoutError) {
        if (Date.now() >= deadline) throw new AppError('SCRAPE_TIMEOUT');
        throw new AppError('SCRAPE_SITE_ERROR', {
          message: `The page could not be turned into content within ${budgetMs} ms`,
        });
      }
      if (error instanceof WorkerCrashedError)
        throw new AppError('SCRAPE_SITE_ERROR', {
          message: error.outOfMemory ? error.message : 'The page crashed its content worker',
        });
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
