export * from './lib/address-policy';
export * from './lib/outbound-errors';
export * from './lib/guarded-http-client';
export * from './lib/webhook-target.policy';
