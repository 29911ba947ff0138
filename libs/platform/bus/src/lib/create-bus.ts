import type { AppConfig } from '@quarry/platform/config';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { Logger } from 'pino';
import { KafkaBus } from './kafka-bus';
import { MemoryBus } from './memory-bus';
import type { MessageBus } from './message-bus';

export function createBus(config: AppConfig['bus'], logger: Logger, metrics?: PlatformMetrics): MessageBus {
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
      },
      busLogger,
      metrics,
    );
  }
  return new MemoryBus(busLogger, metrics);
}
