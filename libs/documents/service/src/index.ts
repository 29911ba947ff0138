export * from './lib/doc-parser/doc-parser.module';
export * from './lib/doc-parser/parse-job.handler';
export * from './lib/scrape/pdf-scrape.module';
export * from './lib/scrape/pdf-content.handler';
export * from './lib/scrape/remote-document-parser';
export * from './lib/scrape/parse-result.waiter';
export * from './lib/document-toolkit.factory';
export * from './lib/scrape/image-content.handler';
