export * from './lib/profile-state';
export * from './lib/profile.repository';
export * from './lib/team-concurrency';
export * from './lib/change-snapshot.repository';
export * from './lib/interact-session.repository';
