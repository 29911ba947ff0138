export * from './lib/message-bus';
export * from './lib/contract-bus';
export * from './lib/memory-bus';
export * from './lib/kafka-bus';
export * from './lib/create-bus';
export * from './lib/bus.module';
export { Semaphore } from './lib/handler-runner';
