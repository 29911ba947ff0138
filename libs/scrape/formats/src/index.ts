// The deterministic formats of a scrape: no language model, the same page always gives the same value.
// The model-backed formats (and their fallbacks, built from these helpers) are @quarry/scrape/model-formats.
export * from './lib/page-input';

// Page extractors: product, menu, change comparison.
export * from './lib/extractors/currency.util';
export * from './lib/extractors/product.extractor';
export * from './lib/extractors/menu.extractor';
export * from './lib/extractors/change-tracking.util';

// Pipeline enrichers (registered by ScrapeFormatsModule in @quarry/scrape/runner, in ENRICHER_ORDER).
export * from './lib/enrichers/change-tracking-models';
export * from './lib/enrichers/change-tracking.enricher';
export * from './lib/enrichers/engine-results.enricher';
export * from './lib/enrichers/menu.enricher';
export * from './lib/enrichers/product.enricher';
export * from './lib/enrichers/page-html.util';

// Offline text helpers: PII, summary, answers, structured data, cleanup, prompt injection, tokens.
export { detectPii, applyRedaction } from './lib/pii/pii-detector.util';
export type { PiiEntity, PiiMode, PiiSpan, ReplaceStyle } from './lib/pii/pii-detector.util';
export { extractiveSummary } from './lib/summary/extractive-summary.util';
export {
  bestPassageScore,
  extractiveAnswer,
  extractiveHighlights,
  rankPassages,
} from './lib/answer/passage-ranking.util';
export { exactAnswer, type ExactAnswer } from './lib/answer/exact-answer.util';
export { offlineAnswer, type OfflineAnswer } from './lib/answer/offline-answer.util';
export { readStructuredData } from './lib/structured/structured-data.util';
export type { StructuredEntity } from './lib/structured/structured-data.util';
export { currencyFromEntities, fillSchema } from './lib/structured/schema-fill.util';
export { removeBoilerplate } from './lib/clean/boilerplate-filter.util';
export { findPromptInjection } from './lib/injection/prompt-injection.util';
export { splitPassages } from './lib/text/passages.util';
export { terms, sentences, words } from './lib/text/tokens.util';
export { Bm25 } from './lib/text/bm25.util';

// Page work run by the content workers (off the event loop, bounded by the job's deadline).
export * from './lib/tasks/page-tasks';
