import { availableParallelism } from 'node:os';

import { z } from 'zod';

import { LIMITS } from '@quarry/contracts';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((value) =>
      value === undefined || value === '' ? fallback : ['true', '1', 'yes'].includes(value),
    );

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

const ratio = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return fallback;
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) {
        ctx.addIssue({ code: 'custom', message: 'must be a number between 0 and 1' });
        return z.NEVER;
      }
      return parsed;
    });

/** `key=value,key2=value2` (the OTLP headers format; values may be percent-encoded). */
const keyValues = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries: Record<string, string> = {};
    for (const item of (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const at = item.indexOf('=');
      if (at <= 0) {
        ctx.addIssue({ code: 'custom', message: `"${item}" is not key=value` });
        return z.NEVER;
      }
      entries[item.slice(0, at).trim()] = decodeURIComponent(item.slice(at + 1).trim());
    }
    return entries;
  });

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const url = (what: string) =>
  optionalString.refine((value) => value === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(value), {
    message: `${what} must be an absolute URL`,
  });

const proxyList = (name: string) =>
  list.refine((values) => values.every((value) => /^https?:\/\/[^\s/]+/i.test(value)), {
    message: `${name} must be a comma-separated list of http:// or https:// proxy URLs`,
  });

/** `CC=url,CC=url,…`: proxy URLs by ISO country code (a country may appear several times). */
const countryProxyList = (name: string) =>
  list
    .refine((values) => values.every((value) => /^[A-Za-z]{2}=https?:\/\/[^\s/]+/i.test(value)), {
      message: `${name} must be a comma-separated list of CC=http(s)://proxy entries, e.g. DE=http://de-proxy:8080`,
    })
    .transform((values) => {
      const pools: Record<string, string[]> = {};
      for (const value of values) {
        const country = value.slice(0, 2).toUpperCase();
        (pools[country] ??= []).push(value.slice(3));
      }
      return pools;
    });

/** `name=url,name2=url2`: named absolute http(s) URLs. */
const namedUrls = (name: string) =>
  keyValues.refine((entries) => Object.values(entries).every((value) => /^https?:\/\/[^\s/]+/i.test(value)), {
    message: `${name} must be a comma-separated list of name=http(s)://host[:port] entries, e.g. scrape-worker=http://scrape-worker:3002`,
  });

/**
 * Every environment variable the platform reads, with its default. ENV_DOCS (env.docs.ts) documents
 * each one; the README configuration table and the Helm values are generated from both.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SERVICE_NAME: optionalString,
  HOST: z.string().default('0.0.0.0'),
  PORT: int(3002, 0, 65_535),
  PUBLIC_URL: url('PUBLIC_URL'),
  DATA_DIR: z.string().default('./.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: url('DATABASE_URL'),
  DATABASE_POOL_SIZE: int(10, 1, 500),
  DATABASE_MIGRATE_ON_START: bool(true),

  BUS_DRIVER: z.enum(['kafka', 'memory', '']).optional(),
  KAFKA_BROKERS: list,
  KAFKA_CLIENT_ID: z.string().default('quarry'),
  BUS_TOPIC_PREFIX: z.string().default('quarry.'),
  KAFKA_REPLICATION_FACTOR: int(0, 0, 7),
  KAFKA_SSL: bool(false),
  // Kafka brokers accept 6-300 s by default (group.min/max.session.timeout.ms).
  KAFKA_SESSION_TIMEOUT_MS: int(30_000, 6_000, 300_000),
  KAFKA_SASL_MECHANISM: z
    .enum(['plain', 'scram-sha-256', 'scram-sha-512', ''])
    .optional()
    .transform((value) => value || undefined),
  KAFKA_SASL_USERNAME: optionalString,
  KAFKA_SASL_PASSWORD: optionalString,

  AUTH_ENABLED: bool(true),
  BOOTSTRAP_API_KEY: optionalString.refine(
    (key) =>
      key === undefined ||
      new RegExp(`^\\S{${LIMITS.apiKeyLength.min},${LIMITS.apiKeyLength.max}}$`).test(key),
    {
      message: `must be ${LIMITS.apiKeyLength.min} to ${LIMITS.apiKeyLength.max} characters without spaces (clients send it as "Authorization: Bearer <key>"), e.g. fc- and 48 hex characters`,
    },
  ),
  BOOTSTRAP_CREDITS: int(1_000_000, 0),
  ADMIN_API_KEY: optionalString.refine((key) => key === undefined || /^\S{32,512}$/.test(key), {
    message: 'must be 32 to 512 characters without spaces (e.g. `openssl rand -hex 32`)',
  }),
  ADMIN_HEALTH_URLS: namedUrls('ADMIN_HEALTH_URLS'),
  GRAFANA_URL: url('GRAFANA_URL'),
  CONSOLE_ENABLED: bool(true),
  RATE_LIMIT_PER_MINUTE: int(1_000, 0),
  TEAM_CONCURRENCY_LIMIT: int(2, 1, 10_000),
  MAX_BODY_BYTES: int(10 * 1024 * 1024, 1_024),

  ALLOW_PRIVATE_NETWORKS: bool(false),
  OUTBOUND_ALLOWLIST: list,
  MAX_RESPONSE_BYTES: int(25 * 1024 * 1024, 1_024),
  SCRAPE_USER_AGENT: z
    .string()
    .default('Mozilla/5.0 (compatible; QuarryBot/0.1; +https://github.com/quarry)'),
  WORKER_CONCURRENCY: int(16, 1, 1_000),
  CONTENT_WORKERS: int(Math.min(4, availableParallelism()), 0, 64),
  CONTENT_WORKER_MEMORY_MB: int(512, 64, 65_536),
  MAX_PAGE_ELEMENTS: int(200_000, 1_000, 10_000_000),
  MAX_PAGE_LINKS: int(100_000, 100, 10_000_000),
  CHROMIUM_PATH: optionalString,
  BROWSER_CONCURRENCY: int(2, 0, 64),
  BROWSER_USER_AGENT: optionalString,
  BROWSER_SETTLE_MS: int(3_000, 0, 60_000),
  BROWSER_MAX_TRANSFER_BYTES: int(100 * 1024 * 1024, 1_024),
  PROXY_BASIC_URLS: proxyList('PROXY_BASIC_URLS'),
  PROXY_ENHANCED_URLS: proxyList('PROXY_ENHANCED_URLS'),
  PROXY_COUNTRY_URLS: countryProxyList('PROXY_COUNTRY_URLS'),

  DOC_PARSER_CONCURRENCY: int(2, 1, 64),
  DOC_WORKER_MEMORY_MB: int(1_024, 64, 65_536),
  DOC_PAGE_TIMEOUT_MS: int(30_000, 1_000, 600_000),
  DOC_CONVERT_TIMEOUT_MS: int(60_000, 1_000, 600_000),
  PARSE_MAX_FILE_BYTES: int(50 * 1024 * 1024, 1_024),
  DOC_MAX_ENTRY_BYTES: int(64 * 1024 * 1024, 1_024),
  DOC_MAX_INFLATED_BYTES: int(256 * 1024 * 1024, 1_024),
  DOC_MAX_OUTPUT_BYTES: int(32 * 1024 * 1024, 1_024),
  OCR_ENGINE: z.enum(['auto', 'tesseract', 'tesseract-js', 'off']).default('auto'),
  OCR_LANGUAGES: z
    .string()
    .regex(/^[a-z_]+(\+[a-z_]+)*$/, {
      message: 'must be Tesseract language codes joined by +, e.g. eng or eng+deu',
    })
    .default('eng'),
  OCR_DPI: int(200, 72, 600),
  OCR_CONCURRENCY: int(2, 1, 32),
  TESSERACT_PATH: z.string().default('tesseract'),
  PDF_RENDERER: z.enum(['auto', 'pdftoppm', 'pdfjs']).default('auto'),
  PDFTOPPM_PATH: z.string().default('pdftoppm'),
  SOFFICE_PATH: z.string().default('soffice'),
  GHOSTSCRIPT_PATH: z.string().default('gs'),

  BLOB_DIR: optionalString,
  BLOB_SIGNING_SECRET: optionalString,
  JOB_RETENTION_HOURS: int(24, 1),
  WORK_MAX_ATTEMPTS: int(2, 1, 20),

  OTEL_EXPORTER_OTLP_ENDPOINT: url('OTEL_EXPORTER_OTLP_ENDPOINT'),
  OTEL_EXPORTER_OTLP_HEADERS: keyValues,
  OTEL_TRACES_SAMPLER_ARG: ratio(1),
  CRAWL_WORKER_CONCURRENCY: int(16, 1, 1_000),
  CRAWL_ROBOTS_USER_AGENT: z.string().min(1).default('QuarryBot'),
  CRAWL_TRAP_MAX_RUN: int(50, 1, 10_000),
  CRAWL_MAX_FRONTIER: int(200_000, 100),
  CRAWL_PAGE_LEASE_MS: int(180_000, 1_000),
  CRAWL_PAGE_MAX_ATTEMPTS: int(3, 1, 100),
  CRAWL_SWEEP_INTERVAL_MS: int(2_000, 100),
  CRAWL_SITEMAP_TIMEOUT_MS: int(30_000, 1_000),
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  WEBHOOK_MAX_ATTEMPTS: int(4, 1, 50),
  WEBHOOK_RETRY_BASE_MS: int(60_000, 10),
  SEARCH_PROVIDER_URL: url('SEARCH_PROVIDER_URL'),
  SEARCH_PROVIDER_TIMEOUT_MS: int(10_000, 100),
  SEARCH_INDEX_INTERVAL_MS: int(1_000, 50),
  SEARCH_INDEX_MAX_LAG_MS: int(60_000, 0),
  MAP_CRAWL_PAGES: int(25, 0, 1_000),

  LLM_BASE_URL: url('LLM_BASE_URL'),
  LLM_API_KEY: optionalString,
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: int(60_000, 100, 600_000),
  LLM_MAX_ATTEMPTS: int(5, 1, 5), // docs/llm.md#the-provider: at most 5 attempts
  LLM_MAX_OUTPUT_TOKENS: int(4_096, 16, 1_000_000),
  LLM_MAX_INPUT_CHARS: int(100_000, 1_000, 10_000_000),

  AGENT_MAX_PAGES: int(20, 1, 1_000),
  AGENT_CONCURRENCY: int(8, 1, 256),
  AGENT_LEASE_MS: int(30_000, 1_000, 3_600_000),
  AGENT_SWEEP_INTERVAL_MS: int(5_000, 100, 600_000),
  AGENT_SCRAPE_TIMEOUT_MS: int(30_000, 1_000, 300_000),
  AGENT_RUN_TIMEOUT_MS: int(3_600_000, 10_000, 86_400_000),

  MONITOR_SCHEDULER_INTERVAL_MS: int(10_000, 100, 600_000),
  MONITOR_CHECK_CONCURRENCY: int(4, 1, 256),
  MONITOR_CHECK_LEASE_MS: int(30_000, 1_000, 3_600_000),
  MONITOR_CHECK_TIMEOUT_MS: int(3_600_000, 10_000, 86_400_000),
  SMTP_URL: optionalString.refine((value) => value === undefined || /^smtps?:\/\/[^/\s]+/i.test(value), {
    message: 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…',
  }),
  SMTP_FROM: z.string().min(3).default('Quarry <quarry@localhost>'),
});

export type Env = z.output<typeof envSchema>;
