import type { z } from 'zod';

import type { envSchema } from './env.schema';

export type EnvName = keyof z.input<typeof envSchema>;

export interface EnvDoc {
  /** The default as the README states it (markdown): a value, or how it is derived. */
  default: string;
  /** What the variable does (markdown, one table cell). */
  description: string;
  /** Holds a credential: the Helm chart renders it into a Secret, never a ConfigMap. */
  secret?: true;
}

/**
 * The documentation of every variable of `envSchema`, in its order: the source of the README
 * configuration table and of the Helm chart's `config`/`secrets` values (deploy/helm/generate.ts
 * writes both; `--check` fails when either is stale). A variable missing here does not compile.
 */
export const ENV_DOCS = {
  NODE_ENV: {
    default: '`development`',
    description: '`development`, `production` or `test`.',
  },
  SERVICE_NAME: {
    default: 'app name',
    description: 'Name in logs, metrics and traces.',
  },
  HOST: {
    default: '`0.0.0.0`',
    description: 'Listen address.',
  },
  PORT: {
    default: '`3002`',
    description: 'HTTP port (API on the gateway/standalone; probes and metrics on workers).',
  },
  PUBLIC_URL: {
    default: 'unset',
    description:
      'Base of absolute URLs in responses (`next` links, blob URLs, crawl URLs). Unset: crawl and batch job URLs and their `next` links name the host the request came through (first `X-Forwarded-Host`/`X-Forwarded-Proto`, else `Host`), other URLs `http://localhost:$PORT`.',
  },
  DATA_DIR: {
    default: '`./.data`',
    description: 'Embedded database, blobs and local state of the one-process mode.',
  },
  LOG_LEVEL: {
    default: '`info`',
    description: '`fatal` … `trace`, `silent`.',
  },
  DATABASE_URL: {
    default: 'unset',
    description: 'PostgreSQL URL. Unset: embedded PGlite in `$DATA_DIR/pglite`.',
  },
  DATABASE_POOL_SIZE: {
    default: '`10`',
    description: 'Connections per process.',
  },
  DATABASE_MIGRATE_ON_START: {
    default: '`true`',
    description:
      'Gateway/standalone apply pending migrations at start (the Helm chart uses a migration Job instead).',
  },
  BUS_DRIVER: {
    default: '`kafka` when `KAFKA_BROKERS` is set, else `memory`',
    description: 'Message bus adapter.',
  },
  KAFKA_BROKERS: {
    default: 'unset',
    description: 'Comma-separated bootstrap brokers.',
  },
  KAFKA_CLIENT_ID: {
    default: '`quarry`',
    description: 'Kafka client id prefix.',
  },
  BUS_TOPIC_PREFIX: {
    default: '`quarry.`',
    description: 'Prefix of every topic and consumer group (isolates deployments sharing a cluster).',
  },
  KAFKA_REPLICATION_FACTOR: {
    default: 'min(3, brokers)',
    description: 'Replication of topics created at start.',
  },
  KAFKA_SESSION_TIMEOUT_MS: {
    default: '`30000`',
    description:
      "Consumer session timeout: a worker silent this long (killed, frozen) loses its partitions and their unfinished messages go to the others. 6000–300000 (the brokers' default bounds).",
  },
  KAFKA_SSL: {
    default: '`false`',
    description: '`true`: TLS to the brokers (system CAs; certificate and host name verified).',
  },
  KAFKA_SASL_MECHANISM: {
    default: 'unset',
    description:
      'SASL authentication: `plain`, `scram-sha-256` or `scram-sha-512` (needs the username and password).',
  },
  KAFKA_SASL_USERNAME: {
    default: 'unset',
    description: 'SASL user name.',
  },
  KAFKA_SASL_PASSWORD: {
    default: 'unset',
    description: 'SASL password (a Secret in the Helm chart).',
    secret: true,
  },
  AUTH_ENABLED: {
    default: '`true`',
    description: '`false`: no key needed, every request belongs to team `default`, no rate limits.',
  },
  BOOTSTRAP_API_KEY: {
    default: 'unset',
    description: 'At start, team `default` owns this key.',
    secret: true,
  },
  BOOTSTRAP_CREDITS: {
    default: '`1000000`',
    description: 'Credits granted once to the bootstrap team.',
  },
  ADMIN_API_KEY: {
    default: 'unset (no operator view)',
    description:
      "Secret of the operator view: the console's operator pages and the admin API under `/admin/v1` accept `Authorization: Bearer <it>`; 32–512 characters; only its SHA-256 is kept in memory ([docs/console.md](docs/console.md)).",
    secret: true,
  },
  ADMIN_HEALTH_URLS: {
    default: 'unset',
    description:
      'Other services whose `/readyz` the operator view shows, `name=url` entries (e.g. `scrape-worker=http://quarry-scrape-worker:3002`); the serving process always reports its own checks.',
  },
  GRAFANA_URL: {
    default: 'unset',
    description: 'Grafana base URL the operator view links the dashboards from.',
  },
  CONSOLE_ENABLED: {
    default: '`true`',
    description: 'Serve the web console under `/console`.',
  },
  RATE_LIMIT_PER_MINUTE: {
    default: '`1000`',
    description:
      'Requests per team per minute per endpoint class (0 = unlimited); per-team override with the CLI.',
  },
  TEAM_CONCURRENCY_LIMIT: {
    default: '`2`',
    description: 'Concurrent browser scrapes per team (per-team override with the CLI).',
  },
  MAX_BODY_BYTES: {
    default: '`10485760`',
    description: 'Largest request body (413 above).',
  },
  MAX_RESPONSE_BYTES: {
    default: '`26214400`',
    description:
      'Largest target response read by the scraper, sitemaps included, counted after decoding `Content-Encoding` (gzip, deflate, br; stopped while decoding, docs/operations.md).',
  },
  ALLOW_PRIVATE_NETWORKS: {
    default: '`false`',
    description: 'Allow outbound requests to private, loopback, link-local and metadata addresses.',
  },
  OUTBOUND_ALLOWLIST: {
    default: 'unset',
    description: 'IPs/CIDRs allowed although private (e.g. one internal site).',
  },
  SCRAPE_USER_AGENT: {
    default: 'QuarryBot',
    description: 'User agent of the HTTP engine.',
  },
  WORKER_CONCURRENCY: {
    default: '`16`',
    description: 'Jobs a scrape worker runs at once.',
  },
  CONTENT_WORKERS: {
    default: 'min(4, CPUs)',
    description:
      "Supervised worker processes that turn fetched pages into markdown and the other formats (scrape workers, one-process mode); `0` runs that work on the event loop. A page that runs past its job's deadline or out of memory costs its worker process (killed and replaced), never the process that owns it ([docs/operations.md](docs/operations.md#limits-and-what-happens-at-each)).",
  },
  CONTENT_WORKER_MEMORY_MB: {
    default: '`512`',
    description:
      'V8 heap limit of one content worker process; it is also killed above twice that plus 256 MiB resident, and replaced after a page that left it above this size.',
  },
  MAX_PAGE_ELEMENTS: {
    default: '`200000`',
    description:
      'A fetched page with more start tags is refused before any DOM is built: 422 `SCRAPE_SITE_ERROR` "page too large to process: … elements", no credits.',
  },
  MAX_PAGE_LINKS: {
    default: '`100000`',
    description: 'The same for `<a>` tags ("… links").',
  },
  CHROMIUM_PATH: {
    default: '`/usr/bin/chromium` when present',
    description: 'Browser for JavaScript pages, actions and screenshots.',
  },
  BROWSER_CONCURRENCY: {
    default: '`2`',
    description: 'Browser pages per worker (`0` disables the browser engine).',
  },
  BROWSER_USER_AGENT: {
    default: 'the browser\'s own, without "Headless"',
    description: 'Desktop user agent of browser pages (docs/scraping.md).',
  },
  BROWSER_SETTLE_MS: {
    default: '`3000`',
    description:
      "Upper bound of the automatic wait (network, DOM, the page's short timers and requests quiet) after a page loaded.",
  },
  BROWSER_MAX_TRANSFER_BYTES: {
    default: '`104857600`',
    description: 'Bytes one browser page may transfer in total before it is stopped.',
  },
  PROXY_BASIC_URLS: {
    default: 'unset',
    description: 'Comma-separated proxy URLs of the basic pool (`proxy: basic`/`auto`); unset: direct.',
    secret: true,
  },
  PROXY_ENHANCED_URLS: {
    default: 'unset',
    description: "Proxy URLs of the enhanced pool (`proxy: enhanced`, and `auto`'s retry).",
    secret: true,
  },
  PROXY_COUNTRY_URLS: {
    default: 'unset',
    description:
      'Per-country pools, `CC=url` entries (e.g. `DE=http://de1:8080,DE=http://de2:8080,FR=http://fr1:8080`): a request with that `location.country` uses them in place of the basic pool.',
    secret: true,
  },
  BLOB_DIR: {
    default: '`$DATA_DIR/blobs`',
    description: 'Screenshots, PDFs and uploads (a shared volume in a cluster).',
  },
  BLOB_SIGNING_SECRET: {
    default: 'generated into `$DATA_DIR`',
    description: 'HMAC secret of blob URLs; set the same value on every replica.',
    secret: true,
  },
  JOB_RETENTION_HOURS: {
    default: '`24`',
    description: 'How long job results stay retrievable.',
  },
  WORK_MAX_ATTEMPTS: {
    default: '`2`',
    description:
      'Runs of one unit of work (scrape, parse or interact job, crawl or batch page, agent/extract step or sub-agent task, monitor check) that may end with their process dying before it is quarantined: failed with its reason (`SCRAPE_RETRY_LIMIT` for jobs and pages), never delivered again; the rest of its crawl, run or schedule goes on (docs/operations.md).',
  },
  DOC_PARSER_CONCURRENCY: {
    default: '`2`',
    description:
      'Documents a doc-parser (or the one-process mode) parses at once, one worker thread each (docs/documents.md).',
  },
  DOC_WORKER_MEMORY_MB: {
    default: '`1024`',
    description:
      'V8 heap limit of a parse worker process: a document needing more fails alone (422), the service survives.',
  },
  DOC_PAGE_TIMEOUT_MS: {
    default: '`30000`',
    description:
      'Budget of one PDF page (text extraction, or rendering + OCR); a page over it is `failed`, the rest continue.',
  },
  DOC_CONVERT_TIMEOUT_MS: {
    default: '`60000`',
    description: 'Budget for opening a PDF or converting an office document.',
  },
  PARSE_MAX_FILE_BYTES: {
    default: '`52428800`',
    description: 'Largest `/v2/parse` upload (413 above).',
  },
  DOC_MAX_ENTRY_BYTES: {
    default: '`67108864`',
    description:
      'Largest uncompressed entry of a ZIP-based upload (DOCX, XLSX, PPTX, ODF, EPUB), counted while inflating, never trusted from its headers (422 `DOCUMENT_TOO_LARGE` above).',
  },
  DOC_MAX_INFLATED_BYTES: {
    default: '`268435456`',
    description: 'Largest uncompressed size of all entries of one ZIP-based upload together (422 above).',
  },
  DOC_MAX_OUTPUT_BYTES: {
    default: '`33554432`',
    description: 'Largest markdown/HTML a converted upload (not a PDF) may produce (422 above).',
  },
  OCR_ENGINE: {
    default: '`auto`',
    description:
      '`tesseract` (Debian binary, one thread per page), `tesseract-js` (WebAssembly, offline data from npm), `auto` (the binary when installed) or `off` (no OCR: images are not parsed and are listed unavailable by `GET /v2/parse/formats`).',
  },
  OCR_LANGUAGES: {
    default: '`eng`',
    description:
      'Tesseract languages, `+`-joined (`eng+deu`); tesseract.js uses the first, from `@tesseract.js-data/<lang>`.',
  },
  OCR_DPI: {
    default: '`200`',
    description: 'Resolution pages are rasterised at for OCR (lowered for very large pages).',
  },
  OCR_CONCURRENCY: {
    default: '`2`',
    description: 'Pages of one document OCRed at the same time.',
  },
  TESSERACT_PATH: {
    default: '`tesseract`',
    description: 'Tesseract binary.',
  },
  PDF_RENDERER: {
    default: '`auto`',
    description:
      '`pdftoppm` (poppler, child process), `pdfjs` (in the parse thread, @napi-rs/canvas) or `auto`.',
  },
  PDFTOPPM_PATH: {
    default: '`pdftoppm`',
    description: "poppler's renderer.",
  },
  SOFFICE_PATH: {
    default: '`soffice`',
    description:
      'LibreOffice for legacy `.doc`, `.xls`, `.xlsb`, `.ppt` uploads (converted to OOXML first); empty disables them.',
  },
  GHOSTSCRIPT_PATH: {
    default: '`gs`',
    description:
      'Ghostscript, to rewrite damaged (e.g. truncated) PDFs that pdf.js cannot open and return the pages it recovers; empty disables it.',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: 'unset',
    description:
      'OTLP/HTTP collector base URL (e.g. `http://otel-collector:4318`); unset: no traces are recorded.',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    default: 'unset',
    description: 'Headers sent to the collector, `key=value,key2=value2` (e.g. an auth token).',
    secret: true,
  },
  OTEL_TRACES_SAMPLER_ARG: {
    default: '`1`',
    description: "Fraction of new traces recorded (0–1); a sampled caller's trace is always followed.",
  },
  LLM_BASE_URL: {
    default: 'unset (offline fallbacks)',
    description: 'OpenAI-compatible API base, e.g. `https://api.openai.com/v1` ([docs/llm.md](docs/llm.md)).',
  },
  LLM_API_KEY: {
    default: 'unset',
    description: 'Bearer key of that API.',
    secret: true,
  },
  LLM_MODEL: {
    default: '`gpt-4o-mini`',
    description: 'Model of every language-model call.',
  },
  LLM_TIMEOUT_MS: {
    default: '`60000`',
    description: 'Time limit of one model call attempt.',
  },
  LLM_MAX_ATTEMPTS: {
    default: '`5`',
    description:
      "Attempts per model call, 1–5 (retries on 408/429/5xx/timeouts with backoff); a `Retry-After` or backoff that would pass the request's deadline ends the call so the format falls back (docs/llm.md#the-provider).",
  },
  LLM_MAX_OUTPUT_TOKENS: {
    default: '`4096`',
    description: '`max_tokens` of model calls; `onlyCleanContent` is skipped for longer markdown.',
  },
  LLM_MAX_INPUT_CHARS: {
    default: '`100000`',
    description: 'Page text sent to the model is cut beyond this.',
  },
  AGENT_MAX_PAGES: {
    default: '`20`',
    description: 'Pages an agent run reads at most ([docs/agent.md](docs/agent.md)).',
  },
  AGENT_CONCURRENCY: {
    default: '`8`',
    description: 'Agent work messages an orchestrator handles at once.',
  },
  AGENT_LEASE_MS: {
    default: '`30000`',
    description: 'Lease on an agent run or task; another orchestrator takes over after it expires.',
  },
  AGENT_SWEEP_INTERVAL_MS: {
    default: '`5000`',
    description: 'How often orchestrators re-publish abandoned agent work.',
  },
  AGENT_SCRAPE_TIMEOUT_MS: {
    default: '`30000`',
    description: 'Timeout of each page an agent reads.',
  },
  AGENT_RUN_TIMEOUT_MS: {
    default: '`3600000`',
    description:
      'An agent run or extract job still unfinished this long after it was accepted fails (not billed).',
  },
  MONITOR_SCHEDULER_INTERVAL_MS: {
    default: '`10000`',
    description:
      'How often orchestrators look for due monitors and abandoned checks ([docs/monitor.md](docs/monitor.md)).',
  },
  MONITOR_CHECK_CONCURRENCY: {
    default: '`4`',
    description: 'Monitor checks an orchestrator runs at once.',
  },
  MONITOR_CHECK_LEASE_MS: {
    default: '`30000`',
    description: 'Lease on a running check; another orchestrator continues it after it expires.',
  },
  MONITOR_CHECK_TIMEOUT_MS: {
    default: '`3600000`',
    description:
      'A check still waiting for its crawls/batches after this long cancels them and reports what it has.',
  },
  SMTP_URL: {
    default: 'unset (no email)',
    description:
      '`smtp://[user:password@]host[:port]` (STARTTLS when offered) or `smtps://…` for monitor email notifications.',
    secret: true,
  },
  SMTP_FROM: {
    default: '`Quarry <quarry@localhost>`',
    description: 'Sender of monitor emails.',
  },
  CRAWL_WORKER_CONCURRENCY: {
    default: '`16`',
    description: 'Crawl and batch pages a worker handles at once ([docs/crawl.md](docs/crawl.md)).',
  },
  CRAWL_ROBOTS_USER_AGENT: {
    default: '`QuarryBot`',
    description: 'robots.txt user-agent token when a crawl names none.',
  },
  CRAWL_TRAP_MAX_RUN: {
    default: '`50`',
    description: 'Same-shape URL chain length treated as a link trap.',
  },
  CRAWL_MAX_FRONTIER: {
    default: '`200000`',
    description: 'Upper bound of frontier rows per crawl.',
  },
  CRAWL_PAGE_LEASE_MS: {
    default: '`180000`',
    description: 'A dispatched crawl page without outcome after this long is sent again.',
  },
  CRAWL_PAGE_MAX_ATTEMPTS: {
    default: '`3`',
    description: 'Deliveries of a crawl page before it is recorded as failed.',
  },
  CRAWL_SWEEP_INTERVAL_MS: {
    default: '`2000`',
    description: 'Period of the crawl recovery sweep.',
  },
  CRAWL_SITEMAP_TIMEOUT_MS: {
    default: '`30000`',
    description: 'Time budget of sitemap collection when a crawl starts.',
  },
  WEBHOOK_SECRET: {
    default: 'unset',
    description: 'Signs webhook bodies (`X-Firecrawl-Signature: sha256=…`).',
    secret: true,
  },
  WEBHOOK_TIMEOUT_MS: {
    default: '`10000`',
    description: 'Time limit of one webhook delivery attempt.',
  },
  WEBHOOK_MAX_ATTEMPTS: {
    default: '`4`',
    description: 'Attempts per webhook event before it is given up.',
  },
  WEBHOOK_RETRY_BASE_MS: {
    default: '`60000`',
    description:
      'Unit of the webhook retry schedule: retries wait 1, 5, then 15 units (1, 5 and 15 minutes by default, as the reference service).',
  },
  SEARCH_PROVIDER_URL: {
    default: 'unset (team index only)',
    description:
      'SearXNG-compatible search endpoint for `/v2/search`, map, extract (`enableWebSearch`) and monitor search targets.',
  },
  SEARCH_PROVIDER_TIMEOUT_MS: {
    default: '`10000`',
    description: 'Time limit of one search provider request.',
  },
  SEARCH_INDEX_INTERVAL_MS: {
    default: '`1000`',
    description:
      "Period of the search indexer, which computes the full-text vectors of stored documents off the write path in batches; a search first indexes its team's pending documents ([docs/crawl.md](docs/crawl.md#search)).",
  },
  SEARCH_INDEX_MAX_LAG_MS: {
    default: '`60000`',
    description:
      'While documents arrive fast (a crawl storing pages) the indexer yields to ingestion, for at most this long after the oldest pending document was stored.',
  },
  MAP_CRAWL_PAGES: {
    default: '`25`',
    description: "Pages the map's light crawl fetches after the start page.",
  },
} as const satisfies Record<EnvName, EnvDoc>;
