import { Global, Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { AddressPolicy, GuardedHttpClient, WebhookTargetPolicy } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { WebhookOutboxRepository, WebhookSender } from '@quarry/webhooks';

/** Outbound client of webhook deliveries (the guard applies: private targets need ALLOW_PRIVATE_NETWORKS or the allowlist). */
export const WEBHOOK_HTTP_CLIENT = Symbol('WEBHOOK_HTTP_CLIENT');

/**
 * The webhook outbox of every job kind (crawl, batch, agent, extract, monitor): the repository its
 * writers use inside their own transactions, the target policy checked when a job is created and
 * the sender that delivers the events (started by the workers, see CrawlRunnerModule).
 */
@Global()
@Module({
  providers: [
    {
      provide: WEBHOOK_HTTP_CLIENT,
      useFactory: (config: AppConfig) =>
        new GuardedHttpClient(new AddressPolicy(config.net.allowPrivateNetworks, config.net.allowlist), {
          userAgent: config.net.userAgent,
          maxBytes: config.limits.maxResponseBytes,
        }),
      inject: [APP_CONFIG],
    },
    {
      provide: WebhookTargetPolicy,
      useFactory: (client: GuardedHttpClient) => new WebhookTargetPolicy(client),
      inject: [WEBHOOK_HTTP_CLIENT],
    },
    {
      provide: WebhookOutboxRepository,
      useFactory: (db: Database) => new WebhookOutboxRepository(db),
      inject: [Database],
    },
    {
      provide: WebhookSender,
      useFactory: (
        outbox: WebhookOutboxRepository,
        client: GuardedHttpClient,
        config: AppConfig,
        logger: Logger,
        metrics: PlatformMetrics,
      ) =>
        new WebhookSender(
          outbox,
          client,
          {
            secret: config.webhooks.secret,
            timeoutMs: config.webhooks.timeoutMs,
            maxAttempts: config.webhooks.maxAttempts,
            retryBaseMs: config.webhooks.retryBaseMs,
            pollIntervalMs: 250,
            pageParallelism: 8,
            streams: 16,
          },
          logger.child({ component: 'webhooks' }),
          (outcome) => metrics.webhookDeliveries.inc({ outcome }),
        ),
      inject: [WebhookOutboxRepository, WEBHOOK_HTTP_CLIENT, APP_CONFIG, LOGGER, PlatformMetrics],
    },
  ],
  exports: [WEBHOOK_HTTP_CLIENT, WebhookTargetPolicy, WebhookOutboxRepository, WebhookSender],
})
export class WebhooksModule {}
