import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ConfigError, loadConfig as sut } from './app-config';
import { envSchema } from './env.schema';

describe('loadConfig', () => {
  it('builds the embedded defaults of the one-process mode', () => {
    const config = sut({});
    expect(config.service).toMatchObject({ port: 3002, host: '0.0.0.0', publicUrl: 'http://localhost:3002' });
    expect(config.database.url).toBeUndefined();
    expect(config.database.embeddedDir).toMatch(/\.data\/pglite$/);
    expect(config.bus.driver).toBe('memory');
    expect(config.auth).toMatchObject({ enabled: true, bootstrapCredits: 1_000_000 });
    expect(config.net.allowPrivateNetworks).toBe(false);
    expect(config.limits.maxBodyBytes).toBe(10 * 1024 * 1024);
  });

  it('switches to Kafka when brokers are configured and strips a trailing slash of PUBLIC_URL', () => {
    const config = sut({ KAFKA_BROKERS: 'a:9092, b:9092', PUBLIC_URL: 'https://api.example.com/' });
    expect(config.bus).toMatchObject({
      driver: 'kafka',
      brokers: ['a:9092', 'b:9092'],
      replicationFactor: 2,
    });
    expect(config.service.publicUrl).toBe('https://api.example.com');
  });

  it('refuses to start with a clear message listing every bad variable', () => {
    expect(() =>
      sut({ PORT: 'eighty', ALLOW_PRIVATE_NETWORKS: 'maybe', DATABASE_URL: 'localhost/db' }),
    ).toThrow(ConfigError);
    try {
      sut({ PORT: 'eighty', ALLOW_PRIVATE_NETWORKS: 'maybe', DATABASE_URL: 'localhost/db' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/ALLOW_PRIVATE_NETWORKS/);
      expect(message).toMatch(/DATABASE_URL/);
    }
    expect(() => sut({ BUS_DRIVER: 'kafka' })).toThrow(/KAFKA_BROKERS/);
  });

  it('reads proxy pools, per-country pools keyed by upper-case ISO code', () => {
    const config = sut({
      PROXY_BASIC_URLS: 'http://b1:8080',
      PROXY_COUNTRY_URLS: 'de=http://u:p@de1:8080, DE=http://de2:8080,FR=https://fr1:8443',
    });
    expect(config.proxies).toEqual({
      basic: ['http://b1:8080'],
      enhanced: [],
      countries: { DE: ['http://u:p@de1:8080', 'http://de2:8080'], FR: ['https://fr1:8443'] },
    });
    expect(sut({}).proxies.countries).toEqual({});
    expect(() => sut({ PROXY_COUNTRY_URLS: 'http://de1:8080' })).toThrow(/PROXY_COUNTRY_URLS: .*CC=http/);
    expect(() => sut({ PROXY_COUNTRY_URLS: 'GER=http://de1:8080' })).toThrow(/PROXY_COUNTRY_URLS/);
  });

  it('accepts a BOOTSTRAP_API_KEY only in the form a bearer token can carry (8 to 512 characters, no spaces)', () => {
    for (const key of ['short', 'fc-abc', 'has a space', 'x'.repeat(513)]) {
      expect(() => sut({ BOOTSTRAP_API_KEY: key })).toThrow(
        /BOOTSTRAP_API_KEY: must be 8 to 512 characters without spaces/,
      );
    }
    expect(sut({ BOOTSTRAP_API_KEY: 'fc-12345' }).auth.bootstrapApiKey).toBe('fc-12345');
    expect(sut({ BOOTSTRAP_API_KEY: ` ${'k'.repeat(512)} ` }).auth.bootstrapApiKey).toBe('k'.repeat(512));
    expect(sut({ BOOTSTRAP_API_KEY: '' }).auth.bootstrapApiKey).toBeUndefined();
  });

  it('keeps only the SHA-256 of ADMIN_API_KEY and reads the operator view settings', () => {
    const key = 'a'.repeat(40);
    const config = sut({
      ADMIN_API_KEY: key,
      ADMIN_HEALTH_URLS: 'scrape-worker=http://worker:3002/, doc-parser=http://parser:3002',
      GRAFANA_URL: 'https://grafana.example.com/',
    });
    expect(config.admin).toEqual({
      apiKeySha256: createHash('sha256').update(key).digest('hex'),
      healthUrls: { 'scrape-worker': 'http://worker:3002', 'doc-parser': 'http://parser:3002' },
      grafanaUrl: 'https://grafana.example.com',
    });
    expect(JSON.stringify(config)).not.toContain(key);
    expect(sut({}).admin).toEqual({ apiKeySha256: undefined, healthUrls: {}, grafanaUrl: undefined });
    expect(sut({}).console.enabled).toBe(true);
    expect(sut({ CONSOLE_ENABLED: 'false' }).console.enabled).toBe(false);
    expect(() => sut({ ADMIN_API_KEY: 'too-short' })).toThrow(/ADMIN_API_KEY: must be 32 to 512 characters/);
    expect(() => sut({ ADMIN_HEALTH_URLS: 'worker=ftp://x' })).toThrow(/ADMIN_HEALTH_URLS/);
    expect(() => sut({ ADMIN_HEALTH_URLS: 'http://worker:3002' })).toThrow(/ADMIN_HEALTH_URLS/);
  });

  it('allows at most 5 language-model attempts (docs/llm.md#the-provider)', () => {
    expect(sut({ LLM_MAX_ATTEMPTS: '5' }).llm.maxAttempts).toBe(5);
    expect(() => sut({ LLM_MAX_ATTEMPTS: '6' })).toThrow(/LLM_MAX_ATTEMPTS/);
  });

  it('documents every variable in the README configuration table', () => {
    const readme = readFileSync(join(__dirname, '../../../../../README.md'), 'utf8');
    const missing = Object.keys(envSchema.shape).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
