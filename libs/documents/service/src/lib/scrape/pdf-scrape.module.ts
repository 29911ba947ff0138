import { Inject, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { HealthRegistry } from '@quarry/platform/observability';
import { PipelineExtensions } from '@quarry/scrape/engine';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';
import { ParseResultWaiter } from './parse-result.waiter';
import { PdfContentHandler } from './pdf-content.handler';
import { RemoteDocumentParser } from './remote-document-parser';

/** Registers the PDF content handler into the scrape pipeline and follows parse results. */
class PdfScrapeRegistration implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(ParseResultWaiter) private readonly waiter: ParseResultWaiter,
    @Inject(RemoteDocumentParser) private readonly remote: RemoteDocumentParser,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  onModuleInit(): void {
    this.extensions.addHandler(new PdfContentHandler(this.remote));
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

/**
 * PDFs found by scrapes go to the doc-parser over the bus (scrape workers and one-process mode
 * import this next to ScrapeRunnerModule).
 */
@Module({
  imports: [ScrapeRunnerModule],
  providers: [
    {
      provide: ParseResultWaiter,
      useFactory: (bus: MessageBus) => new ParseResultWaiter(bus),
      inject: [MESSAGE_BUS],
    },
    {
      provide: RemoteDocumentParser,
      useFactory: (bus: MessageBus, blobs: BlobStore, waiter: ParseResultWaiter) =>
        new RemoteDocumentParser(bus, blobs, waiter),
      inject: [MESSAGE_BUS, BlobStore, ParseResultWaiter],
    },
    PdfScrapeRegistration,
  ],
})
export class PdfScrapeModule {}
