export * from './lib/admin-commands';
export * from './lib/standalone-handle';
export * from './lib/admin-api.module';
