import { type DocumentParseResultEvent } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

/**
 * Consumes `document.parse.results` in a consumer group of its own per scrape worker (a new group
 * reads from the start, so a result published before the wait began is still seen) and hands each
 * result to its ParseResultWaiter.
 */
export class DocumentParseResultsConsumer {
  constructor(
    private readonly bus: MessageBus,
    private readonly group: string,
    private readonly deliver: (event: DocumentParseResultEvent) => void,
  ) {}

  async start(): Promise<void> {
    await this.bus.subscribe(
      'documentParseResults',
      { group: this.group, concurrency: 32 },
      async (message) => this.deliver(message.value as DocumentParseResultEvent),
    );
  }
}
