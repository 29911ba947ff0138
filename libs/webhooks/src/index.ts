export * from './lib/webhook-outbox.repository';
export * from './lib/webhook-sender';
export * from './lib/webhook-signature.util';
