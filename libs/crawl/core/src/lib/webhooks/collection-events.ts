import type { WebhookEvent } from '@quarry/contracts';
import type { WebhookPayload } from '@quarry/webhooks';

import type { OutcomeEvent } from '../frontier/frontier.repository';
import type { CollectionKind, CollectionRow } from '../frontier/frontier.types';

type Subscribed = Pick<CollectionRow, 'kind' | 'webhook'>;

/** Webhook event type names (docs/crawl.md#webhooks). */
export function eventType(kind: CollectionKind, event: 'started' | 'page' | 'completed' | 'failed'): string {
  return `${kind === 'crawl' ? 'crawl' : 'batch_scrape'}.${event}`;
}

/**
 * The webhook events of crawls and batches, filtered by the caller's `events`. Order rules
 * (docs/crawl.md#webhooks, our rule): `started` first, every `page` before the last event. A failed collection
 * ends with `crawl.failed` / `batch_scrape.failed` (`success:false`, `error`) when `failed` is
 * subscribed (the default, as in the reference), else with its `completed` event carrying
 * `success:false` when only `completed` is.
 */
export class CollectionEvents {
  started(collection: Subscribed): OutcomeEvent | undefined {
    return this.subscribed(collection, 'started')
      ? { type: eventType(collection.kind, 'started'), payload: { success: true } }
      : undefined;
  }

  page(collection: Subscribed, payload: WebhookPayload): OutcomeEvent | undefined {
    return this.subscribed(collection, 'page')
      ? { type: eventType(collection.kind, 'page'), payload }
      : undefined;
  }

  finished(collection: Subscribed, status: 'completed' | 'failed', error?: string): OutcomeEvent | undefined {
    if (status === 'completed') {
      return this.subscribed(collection, 'completed')
        ? { type: eventType(collection.kind, 'completed'), payload: { success: true } }
        : undefined;
    }
    const payload = { success: false, error: error ?? 'The job failed' };
    if (this.subscribed(collection, 'failed')) return { type: eventType(collection.kind, 'failed'), payload };
    return this.subscribed(collection, 'completed')
      ? { type: eventType(collection.kind, 'completed'), payload }
      : undefined;
  }

  private subscribed(collection: Subscribed, event: WebhookEvent): boolean {
    return !!collection.webhook && collection.webhook.events.includes(event);
  }
}
