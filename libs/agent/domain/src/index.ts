export * from './lib/run-state';
export * from './lib/keys';
export * from './lib/trace';
export * from './lib/planner';
export * from './lib/model-planner';
export * from './lib/extract-job';
export * from './lib/agent-webhooks';
export * from './lib/thread';
