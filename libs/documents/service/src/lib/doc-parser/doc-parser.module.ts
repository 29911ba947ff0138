import {
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CONSUMER_GROUPS, documentParseJobMessageSchema } from '@quarry/contracts';
import type { DocumentToolkit } from '@quarry/documents/parsing';
import { JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry, LOGGER, PlatformMetrics, type Logger } from '@quarry/platform/observability';
import { closeDocumentToolkit, startDocumentToolkit } from '../document-toolkit.factory';
import { ExtractionModule, ExtractionService } from '@quarry/scrape/extraction';
import { LlmFormatsEnricher } from '@quarry/scrape/llm-formats';
import { ParseJobHandler } from './parse-job.handler';

/** Expired blobs (parse inputs and results nobody collected) are removed this often. */
const BLOB_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The doc-parser role: starts the parsing engines, then consumes `document.parse.jobs`. Readiness
 * waits for the engines (a parse thread with pdf.js loaded) and the subscription.
 */
export class DocParserLifecycle implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private toolkit?: DocumentToolkit;
  private sweeper?: NodeJS.Timeout;
  readonly handler: ParseJobHandler;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(BlobStore) private readonly blobs: BlobStore,
    @Inject(JobRepository) jobs: JobRepository,
    @Inject(JobOutcomeStore) outcomes: JobOutcomeStore,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(LOGGER) logger: Logger,
    @Inject(ExtractionService) extraction: ExtractionService,
  ) {
    this.logger = logger.child({ component: 'doc-parser' });
    this.handler = new ParseJobHandler({
      toolkit: () => {
        if (!this.toolkit) throw new Error('document parsing is not started');
        return this.toolkit;
      },
      enrichers: [new LlmFormatsEnricher(extraction)],
      blobs,
      bus,
      jobs,
      outcomes,
      metrics,
      logger: this.logger,
    });
  }

  private readonly logger: Logger;

  async onModuleInit(): Promise<void> {
    this.toolkit = (await startDocumentToolkit(this.config, this.logger, this.metrics)).toolkit;
    this.health.register('doc-parser', async () => {
      if (!this.toolkit) throw new Error('document parsing engines not started');
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'documentParseJobs',
      {
        group: CONSUMER_GROUPS.docParsers,
        concurrency: this.config.documents.concurrency,
        schema: documentParseJobMessageSchema,
        onInvalid: (error) => this.logger.error({ err: error }, 'invalid parse job message skipped'),
      },
      (message) => this.handler.handle(message.value),
    );
    this.sweeper = setInterval(() => void this.blobs.sweep().catch(() => undefined), BLOB_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.toolkit) await closeDocumentToolkit(this.toolkit);
  }
}

/**
 * Consumes parse jobs (PDFs fetched by scrapes, uploads to /v2/parse). Needs the jobs and billing
 * modules. Uploads get the language-model formats (summary, json, question…) like scrapes do.
 */
@Module({ imports: [ExtractionModule], providers: [DocParserLifecycle] })
export class DocParserModule {}
