import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { PipelineExtensions } from '@quarry/scrape/engine';
import { ExtractionModule, ExtractionService } from '@quarry/scrape/extraction';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';
import { LlmFormatsEnricher } from './llm-formats.enricher';

class LlmFormatsRegistration implements OnModuleInit {
  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(ExtractionService) private readonly extraction: ExtractionService,
  ) {}

  onModuleInit(): void {
    this.extensions.addEnricher(new LlmFormatsEnricher(this.extraction));
  }
}

/** Registers the language-model formats into the scrape pipeline of this process (scrape workers, one-process mode). */
@Module({
  imports: [ScrapeRunnerModule, ExtractionModule],
  providers: [LlmFormatsRegistration],
  exports: [ExtractionModule],
})
export class LlmFormatsModule {}
