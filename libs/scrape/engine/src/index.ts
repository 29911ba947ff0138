export * from './lib/engine.types';
export * from './lib/http.engine';
export * from './lib/scrape-errors';
export * from './lib/document-builder';
export * from './lib/pipeline-extensions';
export * from './lib/scrape-pipeline';
export * from './lib/location.util';
export * from './lib/request-headers.util';
