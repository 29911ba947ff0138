export * from './lib/extract.service';
export * from './lib/extract-steps';
