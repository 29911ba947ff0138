// The model-backed formats of a scrape (summary, json, question, highlights, query, cleanup, PII,
// prompt-injection check, change summaries) with their offline fallbacks; the deterministic helpers
// those fallbacks use are @quarry/scrape/formats.
export * from './lib/extraction.service';
export * from './lib/extraction.module';
export * from './lib/llm-formats.enricher';
export * from './lib/llm-formats.module';
