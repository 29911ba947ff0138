export * from './lib/thread-protocol';
export * from './lib/serve-thread';
export * from './lib/worker-pool';
