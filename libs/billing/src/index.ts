export * from './lib/pricing';
export * from './lib/credits.service';
export * from './lib/rate-limiter';
export * from './lib/usage-report.repository';
