import type { AppConfig } from '@quarry/platform/config';
import type { Logger } from 'pino';
import { KafkaBus } from './kafka-bus';
import { MemoryBus } from './memory-bus';
import type { MessageBus } from './message-bus';

export function createBus(config: AppConfig['bus'], logger: Logger): MessageBus {
  const busLogger = logger.child({ component: 'bus' });
  if (config.driver === 'kafka') {
    return new KafkaBus(
      { brokers: config.brokers, clientId: config.clientId, topicPrefix: config.topicPrefix, replicationFactor: config.replicationFactor },
      busLogger,
    );
  }
  return new MemoryBus(busLogger);
}
