export * from './lib/llm.types';
export * from './lib/llm-error';
export * from './lib/retry-policy';
export * from './lib/json-schema';
export * from './lib/openai-compatible.provider';
export * from './lib/offline.provider';
export * from './lib/token-usage.repository';
export * from './lib/llm.module';
