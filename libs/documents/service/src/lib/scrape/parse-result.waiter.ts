import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { documentParseResultEventSchema, type DocumentParseResultEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

type Resolve = (event: DocumentParseResultEvent | undefined) => void;

/**
 * Wakes scrape handlers waiting for a document they handed to the doc-parser. Every scrape worker
 * follows `document.parse.results` in its own consumer group (a new group reads from the start, so
 * a result published before the wait began is still seen) and keeps only the ids it waits for.
 */
export class ParseResultWaiter {
  private readonly waiting = new Map<string, Resolve>();
  readonly group = `parse-results-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly bus: MessageBus) {}

  async start(): Promise<void> {
    await this.bus.subscribe(
      'documentParseResults',
      { group: this.group, concurrency: 32, schema: documentParseResultEventSchema },
      async (message) => {
        const event = message.value as DocumentParseResultEvent;
        this.waiting.get(event.parseId)?.(event);
      },
    );
  }

  /** Registers interest before the job is published; resolves with the result, or undefined at the deadline or on abort. */
  expect(
    parseId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DocumentParseResultEvent | undefined> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (event: DocumentParseResultEvent | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(parseId);
        resolve(event);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort);
      this.waiting.set(parseId, finish);
    });
  }
}
