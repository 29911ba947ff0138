export * from './lib/blob-store';
export * from './lib/blob.module';
