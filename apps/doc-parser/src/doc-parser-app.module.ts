import { type DynamicModule, Module } from '@nestjs/common';

import { DocParserModule } from '@quarry/documents/service';
import { HealthController, PlatformModule, type PlatformRuntime } from '@quarry/platform/runtime';
import { BillingModule, JobsModule } from '@quarry/wiring/core';

/** The doc-parser: consumes parse jobs (PDF text, OCR, layout, office files); serves only probes and metrics. */
@Module({})
export class DocParserAppModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: DocParserAppModule,
      imports: [PlatformModule.forRoot(runtime), BillingModule, JobsModule, DocParserModule],
      controllers: [HealthController],
    };
  }
}
