export * from './lib/admin-commands';
export * from './lib/standalone-handle';
export * from './lib/admin-api.module';
export * from './lib/operator/operator.service';
export * from './lib/operator/admin-auth.guard';
