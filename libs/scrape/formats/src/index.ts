export * from './lib/change-tracking-models';
export * from './lib/change-tracking.enricher';
export * from './lib/engine-results.enricher';
export * from './lib/menu.enricher';
export * from './lib/product.enricher';
export * from './lib/page-html.util';
export * from './lib/scrape-formats.module';
