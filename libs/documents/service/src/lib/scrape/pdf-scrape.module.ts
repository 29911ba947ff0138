import { Module } from '@nestjs/common';

import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';

import { ParseResultWaiter } from './parse-result.waiter';
import { PdfScrapeRegistration } from './pdf-scrape.registration';
import { RemoteDocumentParser } from './remote-document-parser';

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
