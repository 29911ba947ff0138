// `make test-faults`: fault tests on the local cluster (separate processes, 3 Kafka brokers, a
// PostgreSQL cluster of their own on 25432). Slow by nature: kept out of the e2e run.
module.exports = {
  displayName: 'platform-faults',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.faults-spec.ts'],
  testTimeout: 600_000,
  forceExit: true,
};
