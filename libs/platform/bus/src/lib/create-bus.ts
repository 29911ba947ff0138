import type { Logger } from 'pino';

import type { AppConfig } from '@quarry/platform/config';
import type { PlatformMetrics } from '@quarry/platform/observability';

import { ContractBus } from './contract-bus';
import { KafkaBus } from './kafka-bus';
import { MemoryBus } from './memory-bus';
import type { MessageBus, MessageTransport } from './message-bus';

/** The process's bus: the configured transport behind the topics' contracts. */
export function createBus(config: AppConfig['bus'], logger: Logger, metrics?: PlatformMetrics): MessageBus {
  return new ContractBus(createTransport(config, logger, metrics), logger.child({ component: 'bus' }));
}

function createTransport(
  config: AppConfig['bus'],
  logger: Logger,
  metrics?: PlatformMetrics,
): MessageTransport {
  const busLogger = logger.child({ component: 'bus' });
  if (config.driver === 'kafka') {
    return new KafkaBus(
      {
        brokers: config.brokers,
        ssl: config.ssl,
        sasl: config.sasl,
        clientId: config.clientId,
        topicPrefix: config.topicPrefix,
        replicationFactor: config.replicationFactor,
        sessionTimeoutMs: config.sessionTimeoutMs,
      },
      busLogger,
      metrics,
    );
  }
  return new MemoryBus(busLogger, metrics);
}
