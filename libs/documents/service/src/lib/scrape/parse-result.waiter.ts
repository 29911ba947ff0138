import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { DocumentParseResultEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

import { DocumentParseResultsConsumer } from './document-parse-results.consumer';

type Resolve = (event: DocumentParseResultEvent | undefined) => void;

/**
 * Wakes scrape handlers waiting for a document they handed to the doc-parser. Every scrape worker
 * follows `document.parse.results` in its own consumer group (document-parse-results.consumer.ts)
 * and keeps only the ids it waits for.
 */
export class ParseResultWaiter {
  private readonly waiting = new Map<string, Resolve>();
  readonly group = `parse-results-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly bus: MessageBus) {}

  async start(): Promise<void> {
    await new DocumentParseResultsConsumer(this.bus, this.group, (event) =>
      this.waiting.get(event.parseId)?.(event),
    ).start();
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
