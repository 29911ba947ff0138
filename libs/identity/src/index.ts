export * from './lib/api-key.util';
export * from './lib/auth-context';
export * from './lib/identity.repository';
export * from './lib/auth.service';
export * from './lib/key-management.service';
export * from './lib/default-team';
