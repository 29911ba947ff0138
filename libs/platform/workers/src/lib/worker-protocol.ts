/** A call to a worker process: an operation name and its arguments. */
export interface WorkerCall {
  op: string;
}

export interface WorkerFailure {
  name: string;
  message: string;
  /** Set by errors that carry a classification (e.g. a PDF that is `encrypted` or `invalid`). */
  reason?: string;
}

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WorkerFailure }
  /** An interim value of a call that is still running (see `serveWorker`'s `progress`). */
  | { id: number; progress: unknown };
