import type { PageContent } from '../model/page-content.types';
import { WorkerCrashedError, WorkerTimeoutError } from '../worker/parse-worker-pool';
import { isPageFailure } from './page-content.codec';
import type { PdfSession } from './pdf-session';

/** The parse thread sends the pages it read about this often (ms), in one message. */
export const FLUSH_MS = 20;

export interface ReadPagesOptions {
  /** Pages 1…count are read. */
  count: number;
  /** Interpret drawing operators too (images, rulings, font names). */
  graphics: boolean;
  pageTimeoutMs: number;
  /** Time left for reading (ms): no page is started without any. */
  timeLeft: () => number;
  signal?: AbortSignal;
}

/** Where each page goes as soon as it is known. */
export interface PageSink {
  read(content: PageContent): void;
  /** The page could not be read: pdf.js failed on it, it ran out of time or it killed the thread. */
  unread(pageNumber: number, timedOut: boolean): void;
}

/**
 * Reads the pages of an open document in one go: the parse thread sends them in batches, and each
 * batch gives it a page's time budget again. When a page times out or kills the thread, the worker's
 * mark names that page; the session starts a fresh thread, and the reading goes on with the pages
 * after it (and those of the lost batch before it). A page whose thread died gets one more try.
 * Returns the pages that were never decided because the time ran out.
 */
export async function readPages(
  session: PdfSession,
  options: ReadPagesOptions,
  sink: PageSink,
): Promise<number[]> {
  const { count, timeLeft, signal } = options;
  const decided = new Set<number>();
  const retried = new Set<number>();
  let next = 1;
  const firstOpen = () => {
    while (next <= count && decided.has(next)) next += 1;
    return next;
  };
  const stop = () => session.stop();
  signal?.addEventListener('abort', stop);
  try {
    while (firstOpen() <= count && timeLeft() > 0 && !signal?.aborted) {
      const from = next;
      const before = decided.size;
      try {
        await session.pages(
          {
            from,
            to: count,
            skip: [...decided].filter((page) => page > from),
            graphics: options.graphics,
            stopAt: Date.now() + timeLeft(),
            flushMs: FLUSH_MS,
          },
          () => Math.max(1, Math.min(options.pageTimeoutMs + FLUSH_MS, timeLeft())),
          (outcomes) => {
            for (const outcome of outcomes) {
              decided.add(outcome.pageNumber);
              if (isPageFailure(outcome)) sink.unread(outcome.pageNumber, false);
              else sink.read(outcome);
            }
          },
        );
        if (decided.size === before) break; // stopped before its first page: no time left
      } catch (error) {
        if (!(error instanceof WorkerTimeoutError || error instanceof WorkerCrashedError)) throw error;
        const mark = error.mark;
        const stuck =
          mark !== undefined && Number.isInteger(mark) && mark >= from && mark <= count && !decided.has(mark)
            ? mark
            : firstOpen();
        if (error instanceof WorkerCrashedError && !retried.has(stuck) && timeLeft() > 0) {
          retried.add(stuck);
          continue;
        }
        decided.add(stuck);
        sink.unread(stuck, error instanceof WorkerTimeoutError);
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return Array.from({ length: count }, (_, index) => index + 1).filter((page) => !decided.has(page));
}
