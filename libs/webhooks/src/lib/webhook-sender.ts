import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { Logger } from 'pino';

import { WEBHOOK_SIGNATURE_HEADER, type WebhookBody, type WebhookSettings } from '@quarry/contracts';
import { BlockedAddressError, type GuardedHttpClient } from '@quarry/platform/net';

import type { PendingDelivery, WebhookOutboxRepository } from './webhook-outbox.repository';
import { signWebhookBody } from './webhook-signature.util';

export interface WebhookSenderSettings {
  /** Signs every body when set (X-Firecrawl-Signature). */
  secret?: string;
  timeoutMs: number;
  /** Attempts per event before it is given up. */
  maxAttempts: number;
  /** Unit of the retry schedule: retries wait 1, 5, then 15 units (the reference: 1, 5, 15 minutes). */
  retryBaseMs: number;
  pollIntervalMs: number;
  /** Page events of one job sent at the same time. */
  pageParallelism: number;
  /** Streams (jobs) served at the same time by this process. */
  streams: number;
}

/** What became of one delivery attempt (`quarry_webhook_deliveries_total{outcome}`). */
export type WebhookDeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'refused';

const LEASE_MS = 60_000;
const RESPONSE_LIMIT = 64 * 1024;

/**
 * Sends the webhook outbox. Per job one sender holds the stream's lease and keeps the order of
 * docs/crawl.md#webhooks: `started` alone first, page events (a few in parallel), `completed`/`failed` alone
 * and only after every earlier event was delivered or given up. Failures retry with exponential
 * backoff; private targets are refused by the guarded client unless the deployment allows them.
 */
export class WebhookSender {
  private readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;
  private active = 0;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly outbox: WebhookOutboxRepository,
    private readonly client: GuardedHttpClient,
    private readonly settings: WebhookSenderSettings,
    private readonly logger: Logger,
    private readonly onDelivery: (outcome: WebhookDeliveryOutcome) => void = () => undefined,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.poll().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.settings.pollIntervalMs);
      });
    };
    this.timer = setTimeout(tick, this.settings.pollIntervalMs);
  }

  /** Asks for an immediate round (after this process wrote events). */
  nudge(): void {
    if (!this.stopped) void this.poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private async poll(): Promise<void> {
    while (!this.stopped && this.active < this.settings.streams) {
      let stream;
      try {
        stream = await this.outbox.claimStream(this.owner, LEASE_MS);
      } catch (error) {
        this.logger.warn({ err: error }, 'webhook outbox unavailable');
        return;
      }
      if (!stream) return;
      this.active += 1;
      const task = this.drain(stream.jobId, stream.target)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, jobId: stream.jobId }, 'webhook stream failed'),
        )
        .finally(() => {
          this.active -= 1;
          this.inFlight.delete(task);
          void this.outbox.releaseStream(stream.jobId, this.owner).catch(() => undefined);
        });
      this.inFlight.add(task);
    }
  }

  private async drain(jobId: string, target: WebhookSettings): Promise<void> {
    while (!this.stopped) {
      const pending = await this.outbox.pending(jobId, 50);
      const first = pending[0];
      if (!first || first.nextAttemptAt.getTime() > Date.now()) return;
      const batch: PendingDelivery[] = [first];
      if (isPage(first)) {
        for (const next of pending.slice(1)) {
          if (
            !isPage(next) ||
            next.nextAttemptAt.getTime() > Date.now() ||
            batch.length >= this.settings.pageParallelism
          )
            break;
          batch.push(next);
        }
      }
      await Promise.all(batch.map((delivery) => this.deliver(delivery, target)));
      if (!(await this.outbox.extendLease(jobId, this.owner, LEASE_MS))) return;
    }
  }

  private async deliver(delivery: PendingDelivery, target: WebhookSettings): Promise<void> {
    const body = await this.bodyOf(delivery, target);
    const headers: Record<string, string> = { ...target.headers, 'content-type': 'application/json' };
    if (this.settings.secret) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookBody(body, this.settings.secret);
    let status: number | null = null;
    try {
      const response = await this.client.fetch({
        url: target.url,
        method: 'POST',
        body,
        headers,
        timeoutMs: this.settings.timeoutMs,
        maxBytes: RESPONSE_LIMIT,
        maxRedirects: 0,
      });
      status = response.status;
      if (status >= 200 && status < 300) {
        await this.outbox.markDelivered(delivery.id, status);
        this.onDelivery('delivered');
        return;
      }
      await this.retryOrGiveUp(delivery, `HTTP ${status}`, status);
    } catch (error) {
      if (error instanceof BlockedAddressError) {
        // A private target is refused for good; retrying cannot help.
        await this.outbox.markAttemptFailed(delivery.id, error.message, null, undefined);
        this.onDelivery('refused');
        this.logger.warn(
          { jobId: delivery.jobId, url: target.url },
          'webhook target refused: private address',
        );
        return;
      }
      await this.retryOrGiveUp(delivery, error instanceof Error ? error.message : String(error), status);
    }
  }

  private async retryOrGiveUp(
    delivery: PendingDelivery,
    error: string,
    status: number | null,
  ): Promise<void> {
    const retry = webhookRetryDelayMs(delivery.attempts + 1, this.settings);
    await this.outbox.markAttemptFailed(delivery.id, error, status, retry);
    this.onDelivery(retry === undefined ? 'failed' : 'retry');
    if (retry === undefined)
      this.logger.warn({ jobId: delivery.jobId, type: delivery.type, error }, 'webhook delivery given up');
  }

  private async bodyOf(delivery: PendingDelivery, target: WebhookSettings): Promise<string> {
    const { payload } = delivery;
    let data: unknown[] = [];
    if (payload.documentId) {
      const document = await this.outbox.documentContent(payload.documentId);
      data = document === undefined ? [] : [document];
    } else if (payload.document !== undefined) data = [payload.document];
    const body: WebhookBody = {
      success: payload.success,
      type: delivery.type,
      id: delivery.jobId,
      webhookId: delivery.id,
      data,
      ...(payload.error ? { error: payload.error } : {}),
      metadata: target.metadata,
    };
    return JSON.stringify(body);
  }
}

const isPage = (delivery: PendingDelivery) => delivery.type.endsWith('.page');

/** Retry delays in units of `retryBaseMs`: the reference's 1, 5 and 15 minutes at the default unit. */
const RETRY_STEPS = [1, 5, 15] as const;

/**
 * The wait after failed attempt number `attempt` (1-based): 1, 5, then 15 × `retryBaseMs` (15 for
 * every later one), or undefined when that was the last of `maxAttempts` (the event is given up).
 */
export function webhookRetryDelayMs(
  attempt: number,
  settings: Pick<WebhookSenderSettings, 'maxAttempts' | 'retryBaseMs'>,
): number | undefined {
  if (attempt >= settings.maxAttempts) return undefined;
  return settings.retryBaseMs * RETRY_STEPS[Math.min(attempt, RETRY_STEPS.length) - 1];
}
