import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

import { envSchema } from './env.schema';

export type BusDriver = 'kafka' | 'memory';

/** The typed configuration of every service, built once from the environment at boot. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  /**
   * `publicUrl` is PUBLIC_URL, else `http://localhost:$PORT`; `publicUrlConfigured` says which, so
   * the API may name the host a request came through instead of the fallback.
   */
  service: {
    name: string;
    host: string;
    port: number;
    publicUrl: string;
    publicUrlConfigured: boolean;
    logLevel: string;
  };
  dataDir: string;
  database: { url?: string; poolSize: number; migrateOnStart: boolean; embeddedDir: string };
  bus: {
    driver: BusDriver;
    brokers: string[];
    clientId: string;
    topicPrefix: string;
    replicationFactor: number;
    /** TLS to the brokers (system CAs, certificate and host name verified). */
    ssl: boolean;
    /** SASL authentication; absent: none. */
    sasl?: KafkaSasl;
    /** How long a silent consumer (a dead worker) keeps its partitions before the group takes them back. */
    sessionTimeoutMs: number;
  };
  auth: { enabled: boolean; bootstrapApiKey?: string; bootstrapCredits: number };
  /**
   * The operator view (admin API under /admin/v1 and the console's operator pages): enabled by
   * ADMIN_API_KEY, of which only the SHA-256 (hex) is kept; readiness URLs of the other services and
   * the Grafana base URL it links to.
   */
  admin: { apiKeySha256?: string; healthUrls: Record<string, string>; grafanaUrl?: string };
  /** The web console under /console (docs/console.md). */
  console: { enabled: boolean };
  limits: {
    rateLimitPerMinute: number;
    teamConcurrency: number;
    maxBodyBytes: number;
    maxResponseBytes: number;
  };
  net: { allowPrivateNetworks: boolean; allowlist: string[]; userAgent: string };
  worker: {
    concurrency: number;
    browserConcurrency: number;
    chromiumPath?: string;
    /** Worker processes turning pages into formats (0: on the event loop), and the heap limit of each. */
    contentWorkers: number;
    contentWorkerMemoryMb: number;
    /** Pages with more start tags or links are refused before any DOM is built. */
    pageLimits: { maxElements: number; maxLinks: number };
  };
  browser: {
    /** User agent of browser pages; default: the browser's own, without "Headless". */
    userAgent?: string;
    /** Upper bound of the automatic wait for a quiet page (network and DOM) after load. */
    settleMs: number;
    /** Bytes one page may transfer in total (document and every sub-resource). */
    maxTransferBytes: number;
  };
  /**
   * Outbound proxy pools (`proxy: basic|enhanced|auto`); empty pools mean direct connections.
   * `countries`: per-country pools (ISO code → URLs), used instead of the basic pool for `location.country`.
   */
  proxies: { basic: string[]; enhanced: string[]; countries: Record<string, string[]> };
  blob: { dir: string; signingSecret?: string };
  /** Retention of job results; starts without an outcome after which work is quarantined (poison). */
  jobs: { retentionHours: number; maxAttempts: number };
  /** OpenTelemetry traces: exported over OTLP/HTTP when an endpoint is set. */
  tracing: { endpoint?: string; headers: Record<string, string>; sampleRatio: number };
  crawl: {
    workerConcurrency: number;
    robotsUserAgent: string;
    trapMaxRun: number;
    maxFrontier: number;
    pageLeaseMs: number;
    pageMaxAttempts: number;
    sweepIntervalMs: number;
    sitemapTimeoutMs: number;
  };
  webhooks: { secret?: string; timeoutMs: number; maxAttempts: number; retryBaseMs: number };
  search: { providerUrl?: string; timeoutMs: number; indexIntervalMs: number; indexMaxLagMs: number };
  map: { crawlPages: number };
  /** OpenAI-compatible language model; absent `baseUrl` = offline (deterministic fallbacks). */
  llm: {
    baseUrl?: string;
    apiKey?: string;
    model: string;
    timeoutMs: number;
    maxAttempts: number;
    maxOutputTokens: number;
    maxInputChars: number;
  };
  agent: {
    maxPages: number;
    concurrency: number;
    leaseMs: number;
    sweepIntervalMs: number;
    scrapeTimeoutMs: number;
    /** Attempts at one step or sub-agent task before it is quarantined (the run or page fails with the reason). */
    maxAttempts: number;
    /** A run still unfinished this long after it was accepted fails (not billed). */
    runTimeoutMs: number;
  };
  /** Monitors: the scheduler tick, checks per orchestrator, lease and time limit of one check (docs/monitor.md). */
  monitor: {
    schedulerIntervalMs: number;
    checkConcurrency: number;
    checkLeaseMs: number;
    checkTimeoutMs: number;
    /** Runners a check may have before it is quarantined (fails with the reason; the monitor keeps its schedule). */
    checkMaxAttempts: number;
  };
  /** Outgoing email (monitor notifications); absent `url` = no email is sent. */
  smtp: { url?: string; from: string };
  documents: DocumentsConfig;
}

/** The doc-parser: parse threads, time and memory limits, OCR and rendering engines (docs/documents.md). */
export interface DocumentsConfig {
  /** Documents parsed at once by one process (one worker thread each). */
  concurrency: number;
  workerMemoryMb: number;
  pageTimeoutMs: number;
  convertTimeoutMs: number;
  maxUploadBytes: number;
  /** How far an upload may expand: one archive entry, all entries, the converted output (counted, never declared). */
  limits: { maxEntryBytes: number; maxInflatedBytes: number; maxOutputBytes: number };
  ocr: {
    engine: 'auto' | 'tesseract' | 'tesseract-js' | 'off';
    languages: string;
    dpi: number;
    concurrency: number;
    tesseractPath: string;
  };
  renderer: 'auto' | 'pdftoppm' | 'pdfjs';
  pdftoppmPath: string;
  /** LibreOffice for legacy .doc/.xls/.xlsb/.ppt; an empty value disables it. */
  sofficePath?: string;
  /** Ghostscript, to rewrite damaged PDFs pdf.js cannot open; an empty value disables it. */
  ghostscriptPath?: string;
}

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';
export interface KafkaSasl {
  mechanism: KafkaSaslMechanism;
  username: string;
  password: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Builds the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  defaults: { serviceName?: string } = {},
): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  const driver: BusDriver = env.BUS_DRIVER
    ? env.BUS_DRIVER
    : env.KAFKA_BROKERS.length > 0
      ? 'kafka'
      : 'memory';
  if (driver === 'kafka' && env.KAFKA_BROKERS.length === 0)
    throw new ConfigError(['KAFKA_BROKERS: required when BUS_DRIVER=kafka']);
  const sasl = kafkaSasl(env.KAFKA_SASL_MECHANISM, env.KAFKA_SASL_USERNAME, env.KAFKA_SASL_PASSWORD);
  const blobDir = env.BLOB_DIR
    ? isAbsolute(env.BLOB_DIR)
      ? env.BLOB_DIR
      : resolve(env.BLOB_DIR)
    : join(dataDir, 'blobs');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    service: {
      name: env.SERVICE_NAME ?? defaults.serviceName ?? 'quarry',
      host: env.HOST,
      port: env.PORT,
      publicUrl,
      publicUrlConfigured: env.PUBLIC_URL !== undefined,
      logLevel: env.LOG_LEVEL,
    },
    dataDir,
    database: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      migrateOnStart: env.DATABASE_MIGRATE_ON_START,
      embeddedDir: join(dataDir, 'pglite'),
    },
    bus: {
      driver,
      brokers: env.KAFKA_BROKERS,
      clientId: env.KAFKA_CLIENT_ID,
      topicPrefix: env.BUS_TOPIC_PREFIX,
      replicationFactor: env.KAFKA_REPLICATION_FACTOR || Math.min(3, Math.max(1, env.KAFKA_BROKERS.length)),
      ssl: env.KAFKA_SSL,
      ...(sasl ? { sasl } : {}),
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    },
    auth: {
      enabled: env.AUTH_ENABLED,
      bootstrapApiKey: env.BOOTSTRAP_API_KEY,
      bootstrapCredits: env.BOOTSTRAP_CREDITS,
    },
    admin: {
      apiKeySha256: env.ADMIN_API_KEY
        ? createHash('sha256').update(env.ADMIN_API_KEY).digest('hex')
        : undefined,
      healthUrls: Object.fromEntries(
        Object.entries(env.ADMIN_HEALTH_URLS).map(([name, value]) => [name, value.replace(/\/+$/, '')]),
      ),
      grafanaUrl: env.GRAFANA_URL?.replace(/\/+$/, ''),
    },
    console: { enabled: env.CONSOLE_ENABLED },
    limits: {
      rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
      teamConcurrency: env.TEAM_CONCURRENCY_LIMIT,
      maxBodyBytes: env.MAX_BODY_BYTES,
      maxResponseBytes: env.MAX_RESPONSE_BYTES,
    },
    net: {
      allowPrivateNetworks: env.ALLOW_PRIVATE_NETWORKS,
      allowlist: env.OUTBOUND_ALLOWLIST,
      userAgent: env.SCRAPE_USER_AGENT,
    },
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      browserConcurrency: env.BROWSER_CONCURRENCY,
      chromiumPath: env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATHS.find((path) => existsSync(path)),
      contentWorkers: env.CONTENT_WORKERS,
      contentWorkerMemoryMb: env.CONTENT_WORKER_MEMORY_MB,
      pageLimits: { maxElements: env.MAX_PAGE_ELEMENTS, maxLinks: env.MAX_PAGE_LINKS },
    },
    browser: {
      userAgent: env.BROWSER_USER_AGENT,
      settleMs: env.BROWSER_SETTLE_MS,
      maxTransferBytes: env.BROWSER_MAX_TRANSFER_BYTES,
    },
    proxies: {
      basic: env.PROXY_BASIC_URLS,
      enhanced: env.PROXY_ENHANCED_URLS,
      countries: env.PROXY_COUNTRY_URLS,
    },
    blob: { dir: blobDir, signingSecret: env.BLOB_SIGNING_SECRET },
    jobs: { retentionHours: env.JOB_RETENTION_HOURS, maxAttempts: env.WORK_MAX_ATTEMPTS },
    documents: {
      concurrency: env.DOC_PARSER_CONCURRENCY,
      workerMemoryMb: env.DOC_WORKER_MEMORY_MB,
      pageTimeoutMs: env.DOC_PAGE_TIMEOUT_MS,
      convertTimeoutMs: env.DOC_CONVERT_TIMEOUT_MS,
      maxUploadBytes: env.PARSE_MAX_FILE_BYTES,
      limits: {
        maxEntryBytes: env.DOC_MAX_ENTRY_BYTES,
        maxInflatedBytes: env.DOC_MAX_INFLATED_BYTES,
        maxOutputBytes: env.DOC_MAX_OUTPUT_BYTES,
      },
      ocr: {
        engine: env.OCR_ENGINE,
        languages: env.OCR_LANGUAGES,
        dpi: env.OCR_DPI,
        concurrency: env.OCR_CONCURRENCY,
        tesseractPath: env.TESSERACT_PATH,
      },
      renderer: env.PDF_RENDERER,
      pdftoppmPath: env.PDFTOPPM_PATH,
      sofficePath: env.SOFFICE_PATH.trim() || undefined,
      ghostscriptPath: env.GHOSTSCRIPT_PATH.trim() || undefined,
    },
    tracing: {
      endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
      headers: env.OTEL_EXPORTER_OTLP_HEADERS,
      sampleRatio: env.OTEL_TRACES_SAMPLER_ARG,
    },
    crawl: {
      workerConcurrency: env.CRAWL_WORKER_CONCURRENCY,
      robotsUserAgent: env.CRAWL_ROBOTS_USER_AGENT,
      trapMaxRun: env.CRAWL_TRAP_MAX_RUN,
      maxFrontier: env.CRAWL_MAX_FRONTIER,
      pageLeaseMs: env.CRAWL_PAGE_LEASE_MS,
      pageMaxAttempts: env.CRAWL_PAGE_MAX_ATTEMPTS,
      sweepIntervalMs: env.CRAWL_SWEEP_INTERVAL_MS,
      sitemapTimeoutMs: env.CRAWL_SITEMAP_TIMEOUT_MS,
    },
    webhooks: {
      secret: env.WEBHOOK_SECRET,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    },
    search: {
      providerUrl: env.SEARCH_PROVIDER_URL?.replace(/\/+$/, ''),
      timeoutMs: env.SEARCH_PROVIDER_TIMEOUT_MS,
      indexIntervalMs: env.SEARCH_INDEX_INTERVAL_MS,
      indexMaxLagMs: env.SEARCH_INDEX_MAX_LAG_MS,
    },
    map: { crawlPages: env.MAP_CRAWL_PAGES },
    llm: {
      baseUrl: env.LLM_BASE_URL?.replace(/\/+$/, ''),
      apiKey: env.LLM_API_KEY,
      model: env.LLM_MODEL,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxAttempts: env.LLM_MAX_ATTEMPTS,
      maxOutputTokens: env.LLM_MAX_OUTPUT_TOKENS,
      maxInputChars: env.LLM_MAX_INPUT_CHARS,
    },
    agent: {
      maxPages: env.AGENT_MAX_PAGES,
      concurrency: env.AGENT_CONCURRENCY,
      leaseMs: env.AGENT_LEASE_MS,
      sweepIntervalMs: env.AGENT_SWEEP_INTERVAL_MS,
      scrapeTimeoutMs: env.AGENT_SCRAPE_TIMEOUT_MS,
      maxAttempts: env.WORK_MAX_ATTEMPTS,
      runTimeoutMs: env.AGENT_RUN_TIMEOUT_MS,
    },
    monitor: {
      schedulerIntervalMs: env.MONITOR_SCHEDULER_INTERVAL_MS,
      checkConcurrency: env.MONITOR_CHECK_CONCURRENCY,
      checkLeaseMs: env.MONITOR_CHECK_LEASE_MS,
      checkTimeoutMs: env.MONITOR_CHECK_TIMEOUT_MS,
      checkMaxAttempts: env.WORK_MAX_ATTEMPTS,
    },
    smtp: { url: env.SMTP_URL, from: env.SMTP_FROM },
  };
}

/** SASL settings: all three variables or none (a half-configured client would fail at connect, far from the cause). */
function kafkaSasl(
  mechanism: KafkaSaslMechanism | undefined,
  username: string | undefined,
  password: string | undefined,
): KafkaSasl | undefined {
  if (!mechanism) {
    if (username || password) {
      throw new ConfigError([
        'KAFKA_SASL_MECHANISM: required when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is set',
      ]);
    }
    return undefined;
  }
  const missing = [!username && 'KAFKA_SASL_USERNAME', !password && 'KAFKA_SASL_PASSWORD'].filter(
    (name): name is string => Boolean(name),
  );
  if (missing.length)
    throw new ConfigError(missing.map((name) => `${name}: required when KAFKA_SASL_MECHANISM is set`));
  return { mechanism, username: username as string, password: password as string };
}
