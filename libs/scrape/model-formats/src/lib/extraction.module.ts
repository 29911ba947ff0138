import { Module } from '@nestjs/common';

import { LLM_PROVIDER, LlmModule, type LlmProvider } from '@quarry/llm';

import { ExtractionService } from './extraction.service';

/**
 * Provides ExtractionService: the language-model formats with their offline fallbacks. Import it
 * to call them from other features (e.g. changeTracking's json mode: `compareJson`, `describeChange`).
 */
@Module({
  imports: [LlmModule],
  providers: [
    {
      provide: ExtractionService,
      useFactory: (llm: LlmProvider) => new ExtractionService(llm),
      inject: [LLM_PROVIDER],
    },
  ],
  exports: [ExtractionService],
})
export class ExtractionModule {}
