export * from './lib/search/search-provider';
export * from './lib/search/document-index.repository';
export * from './lib/search/search-indexer';
export * from './lib/search/search.service';
export type * from './lib/search/index-job.deps';
export * from './lib/map/map.service';
export * from './lib/map/page-summary.util';
export * from './lib/map/relevance.util';
