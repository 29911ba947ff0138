import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';

import { Kafka, logLevel } from 'kafkajs';

import { ConfigError, loadConfig } from '@quarry/platform/config';

import { kafkaConnectionConfig } from './kafka-client-config';

/** Environment → AppConfig → the kafkajs connection settings the bus passes to `new Kafka()`. */
const fromEnv = (env: Record<string, string>) => {
  const { bus } = loadConfig({ KAFKA_BROKERS: 'k1:9093,k2:9093', ...env });
  return kafkaConnectionConfig(bus);
};

describe('kafkaConnectionConfig', () => {
  it('connects in plaintext without credentials by default', () => {
    expect(fromEnv({})).toEqual({ brokers: ['k1:9093', 'k2:9093'] });
  });

  it('turns KAFKA_SSL=true into TLS with verification (kafkajs ssl: true)', () => {
    expect(fromEnv({ KAFKA_SSL: 'true' })).toEqual({ brokers: ['k1:9093', 'k2:9093'], ssl: true });
    expect(fromEnv({ KAFKA_SSL: 'false' })).toEqual({ brokers: ['k1:9093', 'k2:9093'] });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'maps KAFKA_SASL_MECHANISM=%s with its username and password',
    (mechanism) => {
      const config = fromEnv({
        KAFKA_SSL: '1',
        KAFKA_SASL_MECHANISM: mechanism,
        KAFKA_SASL_USERNAME: 'quarry',
        KAFKA_SASL_PASSWORD: 's3cret',
      });
      expect(config).toEqual({
        brokers: ['k1:9093', 'k2:9093'],
        ssl: true,
        sasl: { mechanism, username: 'quarry', password: 's3cret' },
      });
    },
  );

  it('allows SASL without TLS when so configured', () => {
    expect(
      fromEnv({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }).ssl,
    ).toBeUndefined();
  });

  it('refuses half-configured SASL and unknown mechanisms at start, naming the variables', () => {
    expect(() => fromEnv({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u' })).toThrow(
      /KAFKA_SASL_PASSWORD: required when KAFKA_SASL_MECHANISM is set/,
    );
    expect(() => fromEnv({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
      /KAFKA_SASL_USERNAME[\s\S]*KAFKA_SASL_PASSWORD/,
    );
    expect(() => fromEnv({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toThrow(
      /KAFKA_SASL_MECHANISM: required/,
    );
    expect(() =>
      fromEnv({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }),
    ).toThrow(ConfigError);
    expect(() => fromEnv({ KAFKA_SSL: 'sometimes' })).toThrow(/KAFKA_SSL/);
  });

  it('makes kafkajs open TLS to the broker when KAFKA_SSL=true (first bytes are a TLS ClientHello)', async () => {
    const firstBytes: Buffer[] = [];
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.once('data', (chunk) => {
        firstBytes.push(chunk);
        socket.destroy();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const broker = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const attempt = async (env: Record<string, string>) => {
      const admin = new Kafka({
        ...kafkaConnectionConfig(loadConfig({ KAFKA_BROKERS: broker, ...env }).bus),
        clientId: 'tls-probe',
        connectionTimeout: 1_000,
        retry: { retries: 0 },
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    };
    try {
      await attempt({ KAFKA_SSL: 'true' });
      await attempt({});
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
    expect(firstBytes).toHaveLength(2);
    // TLS record type 22 (handshake), version 3.x, then a ClientHello (handshake type 1).
    expect([firstBytes[0][0], firstBytes[0][1], firstBytes[0][5]]).toEqual([0x16, 0x03, 0x01]);
    // Plaintext: a Kafka request (4-byte size, then API key 18 = ApiVersions).
    expect(firstBytes[1].readInt16BE(4)).toBe(18);
  });
});
