import { type DynamicModule, Module } from '@nestjs/common';

import { AdminApiModule } from '@quarry/admin';
import { AgentOrchestratorModule } from '@quarry/agent/worker';
import { ApiModule, OperatorApiModule } from '@quarry/api';
import { CrawlRunnerModule } from '@quarry/crawl/runner';
import { DocParserModule, PdfScrapeModule } from '@quarry/documents/service';
import { MonitorRunnerModule } from '@quarry/monitor/runner';
import { PlatformModule, type PlatformRuntime } from '@quarry/platform/runtime';
import { BrowserEngineModule } from '@quarry/scrape/browser';
import { InteractWorkerModule } from '@quarry/scrape/interact';
import { LlmFormatsModule } from '@quarry/scrape/model-formats';
import { ScrapeFormatsModule, ScrapeRunnerModule } from '@quarry/scrape/runner';

/** Everything in one process (`make start`): the API and every worker, on embedded defaults. */
@Module({})
export class StandaloneModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        PlatformModule.forRoot(runtime),
        ApiModule,
        ScrapeRunnerModule,
        BrowserEngineModule,
        ScrapeFormatsModule,
        LlmFormatsModule,
        PdfScrapeModule,
        DocParserModule,
        CrawlRunnerModule,
        InteractWorkerModule,
        AgentOrchestratorModule,
        MonitorRunnerModule,
        AdminApiModule,
        OperatorApiModule,
      ],
    };
  }
}
