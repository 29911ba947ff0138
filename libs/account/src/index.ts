export * from './lib/account-usage.service';
export * from './lib/account.module';
