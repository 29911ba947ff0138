import {
  Inject,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';

import type { DocumentToolkit } from '@quarry/documents/parsing';
import { JobClaims, JobOutcomeStore, JobRepository } from '@quarry/jobs';
import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry, LOGGER, type Logger, PlatformMetrics } from '@quarry/platform/observability';
import { ExtractionService, LlmFormatsEnricher } from '@quarry/scrape/model-formats';

import { closeDocumentToolkit, startDocumentToolkit } from '../document-toolkit.factory';
import { ParseJobHandler } from './parse-job.handler';

/** Expired blobs (parse inputs and results nobody collected) are removed this often. */
const BLOB_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The doc-parser role: starts the parsing engines (readiness waits for a parse thread with pdf.js
 * loaded), builds the parse job handler the `document.parse.jobs` consumer runs, and sweeps expired
 * blobs; stops the engines at shutdown.
 */
export class DocParserLifecycle implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private toolkit?: DocumentToolkit;
  private sweeper?: NodeJS.Timeout;
  readonly handler: ParseJobHandler;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(BlobStore) private readonly blobs: BlobStore,
    @Inject(JobRepository) jobs: JobRepository,
    @Inject(JobOutcomeStore) outcomes: JobOutcomeStore,
    @Inject(JobClaims) claims: JobClaims,
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
      claims,
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

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.blobs.sweep().catch(() => undefined), BLOB_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.toolkit) await closeDocumentToolkit(this.toolkit);
  }
}
