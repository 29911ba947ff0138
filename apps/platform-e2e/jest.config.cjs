// Black-box tests of running services (built bundles in dist/), against real PostgreSQL and Kafka.
// testTimeout and forceExit are global Jest options, so the Makefile passes them (--testTimeout, --forceExit).
module.exports = {
  displayName: 'platform-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
};
