/** A call to a worker thread: an operation name and its arguments. */
export interface ThreadCall {
  op: string;
}

export interface ThreadFailure {
  name: string;
  message: string;
  /** Set by errors that carry a classification (e.g. a PDF that is `encrypted` or `invalid`). */
  reason?: string;
}

export type ThreadResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadFailure };
