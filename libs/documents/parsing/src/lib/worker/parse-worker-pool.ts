import { join } from 'node:path';

import { WorkerPool, type WorkerPoolOptions, type WorkerProcess } from '@quarry/platform/workers';

import type { WorkerCall, WorkerSettings } from './worker-protocol';

export { WorkerCrashedError, WorkerTaskError, WorkerTimeoutError } from '@quarry/platform/workers';
export type { WorkerCall } from './worker-protocol';

export interface ParseWorkerPoolOptions {
  /** Worker processes at most (one per document being parsed). */
  size: number;
  /** V8 heap limit of each process, in MiB: a file that needs more kills only its process. */
  memoryMb: number;
  settings: WorkerSettings;
  onEvent?: WorkerPoolOptions['onEvent'];
}

/** One parse worker process, held by one document at a time. */
export type ParseWorker = WorkerProcess<WorkerCall>;

/**
 * The parse worker processes: everything that reads untrusted document bytes runs in one of them
 * (`parse-worker.main.ts`), reused across documents, replaced when one times out, crashes or grew.
 */
export class ParseWorkerPool extends WorkerPool<WorkerCall> {
  constructor(options: ParseWorkerPoolOptions) {
    super({
      name: 'Parse worker',
      entry: { bundle: 'parse-worker.js', source: join(__dirname, 'parse-worker.main.ts') },
      size: options.size,
      memoryMb: options.memoryMb,
      data: { settings: options.settings },
      outOfMemoryMessage: 'The document needed more memory than a parse worker may use',
      onEvent: options.onEvent,
    });
  }

  /** Starts one worker and loads pdf.js in it, so the first document does not pay for it. */
  async warm(timeoutMs = 60_000): Promise<void> {
    await this.run({ op: 'ping' }, timeoutMs);
  }
}
