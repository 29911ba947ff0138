export * from './lib/document-toolkit';
export * from './lib/parse-document';
export * from './lib/pdf/pdf-document.parser';
export * from './lib/layout/document-layout';
export * from './lib/assemble/assemble-document';
export * from './lib/model/page-content.types';
export * from './lib/office/office-output.types';
export * from './lib/ocr/ocr-engine';
export {
  ParseWorkerPool,
  WorkerCrashedError,
  WorkerTimeoutError,
  WorkerTaskError,
} from './lib/worker/parse-worker-pool';
