export * from './lib/llm-formats.enricher';
export * from './lib/llm-formats.module';
