import pino from 'pino';

import type { WebhookSettings } from '@quarry/contracts';
import { BlockedAddressError, type GuardedHttpClient } from '@quarry/platform/net';

import type { PendingDelivery, WebhookOutboxRepository } from './webhook-outbox.repository';
import {
  type WebhookDeliveryOutcome,
  webhookRetryDelayMs,
  WebhookSender,
  type WebhookSenderSettings,
} from './webhook-sender';

const TARGET: WebhookSettings = {
  url: 'http://hooks.test/receive',
  headers: {},
  metadata: {},
  events: ['started', 'page', 'completed', 'failed'],
};

/** The outbox as the sender sees it, in memory: one stream, events in order, every retry due at once (the delay is recorded). */
class FakeOutbox {
  readonly attempts: { id: string; retryInMs: number | undefined; error: string }[] = [];
  readonly delivered: string[] = [];
  private readonly events: (PendingDelivery & { status: 'pending' | 'delivered' | 'failed' })[];
  private leased = false;

  constructor(types: string[]) {
    this.events = types.map((type, index) => ({
      id: `event-${index + 1}`,
      jobId: 'job-1',
      teamId: 'team-1',
      type,
      payload: { success: true },
      attempts: 0,
      nextAttemptAt: new Date(0),
      status: 'pending' as const,
    }));
  }

  settled(): boolean {
    return !this.leased && this.events.every((event) => event.status !== 'pending');
  }

  async claimStream() {
    if (this.leased || !this.events.some((event) => event.status === 'pending')) return undefined;
    this.leased = true;
    return { jobId: 'job-1', target: TARGET };
  }

  async pending(_jobId: string, limit: number) {
    return this.events.filter((event) => event.status === 'pending').slice(0, limit);
  }

  async markDelivered(id: string) {
    this.find(id).status = 'delivered';
    this.delivered.push(id);
  }

  async markAttemptFailed(id: string, error: string, _status: number | null, retryInMs: number | undefined) {
    const event = this.find(id);
    event.attempts += 1;
    if (retryInMs === undefined) event.status = 'failed';
    this.attempts.push({ id, retryInMs, error });
  }

  async extendLease() {
    return true;
  }

  async releaseStream() {
    this.leased = false;
  }

  async documentContent() {
    return undefined;
  }

  private find(id: string) {
    const event = this.events.find((candidate) => candidate.id === id);
    if (!event) throw new Error(`unknown event ${id}`);
    return event;
  }
}

/** A target answering each request with the next scripted outcome (then 200). */
function scriptedClient(outcomes: (number | Error)[]) {
  const requests: { body: string }[] = [];
  const client = {
    async fetch(request: { body?: string }) {
      requests.push({ body: String(request.body) });
      const outcome = outcomes.shift() ?? 200;
      if (outcome instanceof Error) throw outcome;
      return { status: outcome };
    },
  };
  return { client: client as unknown as GuardedHttpClient, requests };
}

const SETTINGS: WebhookSenderSettings = {
  timeoutMs: 1_000,
  maxAttempts: 5,
  retryBaseMs: 200,
  pollIntervalMs: 60_000,
  pageParallelism: 4,
  streams: 1,
};

async function run(
  outbox: FakeOutbox,
  client: GuardedHttpClient,
  settings = SETTINGS,
  outcomes: WebhookDeliveryOutcome[] = [],
): Promise<void> {
  const sut = new WebhookSender(
    outbox as unknown as WebhookOutboxRepository,
    client,
    settings,
    pino({ level: 'silent' }),
    (outcome) => outcomes.push(outcome),
  );
  sut.nudge();
  const deadline = Date.now() + 5_000;
  while (!outbox.settled() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  await sut.stop();
}

describe('webhook retry backoff', () => {
  it('waits 1, 5, then 15 units of WEBHOOK_RETRY_BASE_MS and gives up after WEBHOOK_MAX_ATTEMPTS', () => {
    // The defaults (4 attempts, 60 s): retries after 1, 5 and 15 minutes, as the reference service.
    expect(
      [1, 2, 3, 4].map((attempt) => webhookRetryDelayMs(attempt, { maxAttempts: 4, retryBaseMs: 60_000 })),
    ).toEqual([60_000, 300_000, 900_000, undefined]);
    expect(
      [1, 2, 3, 4, 5].map((attempt) => webhookRetryDelayMs(attempt, { maxAttempts: 5, retryBaseMs: 1_000 })),
    ).toEqual([1_000, 5_000, 15_000, 15_000, undefined]);
    expect(webhookRetryDelayMs(1, { maxAttempts: 1, retryBaseMs: 1_000 })).toBeUndefined();
  });

  it('schedules each failed attempt of an event on that schedule, then gives it up and moves on', async () => {
    const outbox = new FakeOutbox(['crawl.started', 'crawl.completed']);
    const { client, requests } = scriptedClient([503, 503, new Error('connect ECONNREFUSED'), 500, 502]);
    const outcomes: WebhookDeliveryOutcome[] = [];
    await run(outbox, client, SETTINGS, outcomes);
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'retry', 'failed', 'delivered']);
    expect(outbox.attempts).toEqual([
      { id: 'event-1', retryInMs: 200, error: 'HTTP 503' },
      { id: 'event-1', retryInMs: 1_000, error: 'HTTP 503' },
      { id: 'event-1', retryInMs: 3_000, error: 'connect ECONNREFUSED' },
      { id: 'event-1', retryInMs: 3_000, error: 'HTTP 500' },
      { id: 'event-1', retryInMs: undefined, error: 'HTTP 502' },
    ]);
    // the completed event waited for the started one to be given up, then went out once
    expect(outbox.delivered).toEqual(['event-2']);
    expect(requests).toHaveLength(6);
    expect(requests.map((request) => (JSON.parse(request.body) as { webhookId: string }).webhookId)).toEqual([
      ...Array.from({ length: 5 }, () => 'event-1'),
      'event-2',
    ]);
  });

  it('stops retrying once a delivery succeeds', async () => {
    const outbox = new FakeOutbox(['batch_scrape.started']);
    const { client } = scriptedClient([503, 503]);
    await run(outbox, client);
    expect(outbox.attempts.map((attempt) => attempt.retryInMs)).toEqual([200, 1_000]);
    expect(outbox.delivered).toEqual(['event-1']);
  });

  it('never retries a target the outbound guard refuses', async () => {
    const outbox = new FakeOutbox(['crawl.started']);
    const { client, requests } = scriptedClient([new BlockedAddressError(TARGET.url, '10.0.0.1')]);
    const outcomes: WebhookDeliveryOutcome[] = [];
    await run(outbox, client, SETTINGS, outcomes);
    expect(outcomes).toEqual(['refused']);
    expect(outbox.attempts).toEqual([
      { id: 'event-1', retryInMs: undefined, error: expect.stringMatching(/^Blocked insecure target URL/) },
    ]);
    expect(requests).toHaveLength(1);
  });
});
