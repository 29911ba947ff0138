import { Inject, type OnModuleInit } from '@nestjs/common';

import { PipelineExtensions } from '@quarry/scrape/engine';

import { ExtractionService } from './extraction.service';
import { LlmFormatsEnricher } from './llm-formats.enricher';

/** Adds the language-model formats enricher to this process's scrape pipeline (its place: ENRICHER_ORDER). */
export class LlmFormatsRegistration implements OnModuleInit {
  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(ExtractionService) private readonly extraction: ExtractionService,
  ) {}

  onModuleInit(): void {
    this.extensions.addEnricher(new LlmFormatsEnricher(this.extraction));
  }
}
