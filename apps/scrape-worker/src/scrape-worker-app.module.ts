import { type DynamicModule, Module } from '@nestjs/common';

import { CrawlRunnerModule } from '@quarry/crawl/runner';
import { PdfScrapeModule } from '@quarry/documents/service';
import { HealthController, PlatformModule, type PlatformRuntime } from '@quarry/platform/runtime';
import { BrowserEngineModule } from '@quarry/scrape/browser';
import { InteractWorkerModule } from '@quarry/scrape/interact';
import { LlmFormatsModule } from '@quarry/scrape/model-formats';
import { ScrapeFormatsModule, ScrapeRunnerModule } from '@quarry/scrape/runner';
import { BillingModule, JobsModule } from '@quarry/wiring/core';

/** The scrape worker: consumes scrape jobs and crawl/batch tasks; serves only probes and metrics over HTTP. */
@Module({})
export class ScrapeWorkerAppModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: ScrapeWorkerAppModule,
      imports: [
        PlatformModule.forRoot(runtime),
        BillingModule,
        JobsModule,
        ScrapeRunnerModule,
        BrowserEngineModule,
        ScrapeFormatsModule,
        LlmFormatsModule,
        PdfScrapeModule,
        CrawlRunnerModule,
        InteractWorkerModule,
      ],
      controllers: [HealthController],
    };
  }
}
