export * from './lib/cache-key';
export * from './lib/scrape-cache';
