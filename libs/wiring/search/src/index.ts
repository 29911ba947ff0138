export * from './lib/search.module';
