import { Module } from '@nestjs/common';

import {
  CheckNotifier,
  EmailSubscriptionRepository,
  type Mailer,
  MonitorRepository,
  MonitorService,
  SmtpMailer,
} from '@quarry/monitor';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { WebhookTargetPolicy } from '@quarry/platform/net';
import { LOGGER, type Logger } from '@quarry/platform/observability';
import { WebhookOutboxRepository } from '@quarry/webhooks';
import { WebhooksModule } from '@quarry/wiring/core';

/** The process's mail sender (SMTP_URL); unconfigured, it sends nothing. */
export const MONITOR_MAILER = Symbol('MONITOR_MAILER');

/** Monitor storage, notifications and the monitor API's service (gateways, orchestrators, one-process mode). */
@Module({
  imports: [WebhooksModule],
  providers: [
    {
      provide: MonitorRepository,
      useFactory: (db: Database, outbox: WebhookOutboxRepository) => new MonitorRepository(db, outbox),
      inject: [Database, WebhookOutboxRepository],
    },
    {
      provide: EmailSubscriptionRepository,
      useFactory: (db: Database) => new EmailSubscriptionRepository(db),
      inject: [Database],
    },
    {
      provide: MONITOR_MAILER,
      useFactory: (config: AppConfig): Mailer =>
        new SmtpMailer({ url: config.smtp.url, from: config.smtp.from }),
      inject: [APP_CONFIG],
    },
    {
      provide: CheckNotifier,
      useFactory: (
        subscriptions: EmailSubscriptionRepository,
        mailer: Mailer,
        config: AppConfig,
        logger: Logger,
      ) =>
        new CheckNotifier({
          subscriptions,
          mailer,
          publicUrl: config.service.publicUrl,
          logger: logger.child({ component: 'monitor-notifier' }),
        }),
      inject: [EmailSubscriptionRepository, MONITOR_MAILER, APP_CONFIG, LOGGER],
    },
    {
      provide: MonitorService,
      useFactory: (
        monitors: MonitorRepository,
        subscriptions: EmailSubscriptionRepository,
        notifier: CheckNotifier,
        bus: MessageBus,
        config: AppConfig,
        logger: Logger,
        webhookTargets: WebhookTargetPolicy,
      ) =>
        new MonitorService({
          monitors,
          subscriptions,
          notifier,
          bus,
          publicUrl: config.service.publicUrl,
          logger: logger.child({ component: 'monitor-api' }),
          webhookTargets,
        }),
      inject: [
        MonitorRepository,
        EmailSubscriptionRepository,
        CheckNotifier,
        MESSAGE_BUS,
        APP_CONFIG,
        LOGGER,
        WebhookTargetPolicy,
      ],
    },
  ],
  exports: [MonitorRepository, EmailSubscriptionRepository, CheckNotifier, MonitorService, MONITOR_MAILER],
})
export class MonitorModule {}
