import type { WebhookEvent } from '@quarry/contracts';
import type { CollectionKind, CollectionRow } from '../frontier/frontier.types';
import type { OutcomeEvent } from '../frontier/frontier.repository';
import type { WebhookPayload } from './webhook-outbox.repository';

type Subscribed = Pick<CollectionRow, 'kind' | 'webhook'>;

/** Webhook event type names (compat §17). */
export function eventType(kind: CollectionKind, event: 'started' | 'page' | 'completed'): string {
  return `${kind === 'crawl' ? 'crawl' : 'batch_scrape'}.${event}`;
}

/**
 * The webhook events of crawls and batches, filtered by the caller's `events`. Order rules
 * (compat §17, our rule): `started` first, every `page` before `completed`; a failed collection
 * sends its `completed` event with `success:false` when `completed` or `failed` is subscribed.
 */
export class CollectionEvents {
  started(collection: Subscribed): OutcomeEvent | undefined {
    return this.subscribed(collection, 'started') ? { type: eventType(collection.kind, 'started'), payload: { success: true } } : undefined;
  }

  page(collection: Subscribed, payload: WebhookPayload): OutcomeEvent | undefined {
    return this.subscribed(collection, 'page') ? { type: eventType(collection.kind, 'page'), payload } : undefined;
  }

  finished(collection: Subscribed, status: 'completed' | 'failed', error?: string): OutcomeEvent | undefined {
    const wanted = this.subscribed(collection, 'completed') || (status === 'failed' && this.subscribed(collection, 'failed'));
    if (!wanted) return undefined;
    return { type: eventType(collection.kind, 'completed'), payload: status === 'completed' ? { success: true } : { success: false, error: error ?? 'The job failed' } };
  }

  private subscribed(collection: Subscribed, event: WebhookEvent): boolean {
    return !!collection.webhook && collection.webhook.events.includes(event);
  }
}
