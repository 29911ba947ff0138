export * from './lib/account-usage.service';
