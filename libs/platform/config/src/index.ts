export * from './lib/app-config';
export * from './lib/config.module';
export { envSchema, type Env } from './lib/env.schema';
export { ENV_DOCS, type EnvDoc, type EnvName } from './lib/env.docs';
