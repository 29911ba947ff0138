import { Module } from '@nestjs/common';

import { ScrapeRunnerModule } from '@quarry/scrape/runner';

import { ExtractionModule } from './extraction.module';
import { LlmFormatsRegistration } from './llm-formats.registration';

/** Registers the language-model formats into the scrape pipeline of this process (scrape workers, one-process mode). */
@Module({
  imports: [ScrapeRunnerModule, ExtractionModule],
  providers: [LlmFormatsRegistration],
  exports: [ExtractionModule],
})
export class LlmFormatsModule {}
