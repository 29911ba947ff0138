import { Inject, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';

import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry } from '@quarry/platform/observability';
import { PipelineExtensions } from '@quarry/scrape/engine';

import { ImageContentHandler } from './image-content.handler';
import { ParseResultWaiter } from './parse-result.waiter';
import { PdfContentHandler } from './pdf-content.handler';
import { RemoteDocumentParser } from './remote-document-parser';

/**
 * Registers the PDF content handler (and, unless OCR is off, the image parser's) into the scrape
 * pipeline and follows parse results.
 */
export class PdfScrapeRegistration implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(ParseResultWaiter) private readonly waiter: ParseResultWaiter,
    @Inject(RemoteDocumentParser) private readonly remote: RemoteDocumentParser,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.extensions.addHandler(new PdfContentHandler(this.remote));
    if (this.config.documents.ocr.engine !== 'off')
      this.extensions.addHandler(new ImageContentHandler(this.remote));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.waiter.start();
    let assigned = false;
    void this.bus.subscriptionsReady().then(() => (assigned = true));
    this.health.register('parse-results', async () => {
      if (!assigned) throw new Error('parse results subscription not assigned yet');
    });
  }
}
