export * from './lib/agent.service';
export * from './lib/agent-api.module';
