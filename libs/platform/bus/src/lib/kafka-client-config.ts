import type { KafkaConfig, SASLOptions } from 'kafkajs';

import type { KafkaSasl } from '@quarry/platform/config';

/** Connection settings of a Kafka client, as AppConfig['bus'] carries them. */
export interface KafkaConnectionOptions {
  brokers: string[];
  /** TLS to the brokers: system CAs, certificate chain and host name verified. */
  ssl?: boolean;
  sasl?: KafkaSasl;
}

/**
 * The connection part of a kafkajs client configuration: brokers, TLS and SASL. Everything else
 * (client id, timeouts, retries, logging) is the bus's own. SASL without TLS is allowed (some
 * clusters terminate TLS elsewhere), exactly as configured.
 */
export function kafkaConnectionConfig(
  options: KafkaConnectionOptions,
): Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl'> {
  const config: Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl'> = { brokers: options.brokers };
  if (options.ssl) config.ssl = true;
  if (options.sasl) config.sasl = saslOptions(options.sasl);
  return config;
}

function saslOptions(sasl: KafkaSasl): SASLOptions {
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username, password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}
