export * from './lib/worker-protocol';
export * from './lib/serve-worker';
export * from './lib/worker-pool';
export { setWorkerMark } from './lib/worker-mark';
