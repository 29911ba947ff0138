import { Module } from '@nestjs/common';

import { AgentRunRepository } from '@quarry/agent/domain';
import { ExtractService, type ExtractServiceDeps } from '@quarry/agent/extract';
import { CreditsService } from '@quarry/billing';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { WebhookTargetPolicy } from '@quarry/platform/net';
import { LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { WebhookOutboxRepository } from '@quarry/webhooks';
import { BillingModule, JobsModule, WebhooksModule } from '@quarry/wiring/core';

import { AgentService, type AgentServiceDeps } from './agent.service';

const runRepository = {
  provide: AgentRunRepository,
  useFactory: (db: Database, credits: CreditsService, webhooks: WebhookOutboxRepository) =>
    new AgentRunRepository(db, credits, webhooks),
  inject: [Database, CreditsService, WebhookOutboxRepository],
};

/** What the agent and extract services are built from, injected in this order. */
const SERVICE_INJECTS = [
  AgentRunRepository,
  CreditsService,
  MESSAGE_BUS,
  APP_CONFIG,
  PlatformMetrics,
  LOGGER,
  WebhookTargetPolicy,
  WebhookOutboxRepository,
];

/** The dependencies of the agent or extract service, logging as `component`. */
const serviceDeps =
  (component: string) =>
  (
    runs: AgentRunRepository,
    credits: CreditsService,
    bus: MessageBus,
    config: AppConfig,
    metrics: PlatformMetrics,
    logger: Logger,
    webhookTargets: WebhookTargetPolicy,
    webhookDeliveries: WebhookOutboxRepository,
  ): AgentServiceDeps & ExtractServiceDeps => ({
    runs,
    credits,
    bus,
    config,
    metrics,
    logger: logger.child({ component }),
    webhookTargets,
    webhookDeliveries,
  });

/** The agent API's services (gateway side): agent runs (create, poll, trace, snapshot, cancel, list) and extract jobs. */
@Module({
  imports: [BillingModule, JobsModule, WebhooksModule],
  providers: [
    runRepository,
    {
      provide: AgentService,
      useFactory: (...deps: Parameters<ReturnType<typeof serviceDeps>>) =>
        new AgentService(serviceDeps('agent-api')(...deps)),
      inject: SERVICE_INJECTS,
    },
    {
      provide: ExtractService,
      useFactory: (...deps: Parameters<ReturnType<typeof serviceDeps>>) =>
        new ExtractService(serviceDeps('extract-api')(...deps)),
      inject: SERVICE_INJECTS,
    },
  ],
  exports: [AgentService, ExtractService, AgentRunRepository],
})
export class AgentApiModule {}
