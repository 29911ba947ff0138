import { Module, type DynamicModule } from '@nestjs/common';
import { BillingModule } from '@quarry/billing';
import { JobsModule } from '@quarry/jobs';
import { HealthController, PlatformModule, type PlatformRuntime } from '@quarry/platform/http';
import { LlmFormatsModule } from '@quarry/scrape/llm-formats';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';

/** The scrape worker: consumes scrape jobs; serves only probes and metrics over HTTP. */
@Module({})
export class ScrapeWorkerAppModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: ScrapeWorkerAppModule,
      imports: [PlatformModule.forRoot(runtime), BillingModule, JobsModule, ScrapeRunnerModule, LlmFormatsModule],
      controllers: [HealthController],
    };
  }
}
