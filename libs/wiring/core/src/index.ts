export * from './lib/account.module';
export * from './lib/billing.module';
export * from './lib/identity.module';
export * from './lib/jobs.module';
export * from './lib/webhooks.module';
