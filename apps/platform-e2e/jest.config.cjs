// Black-box tests of running services (built bundles in dist/), against real PostgreSQL and Kafka.
module.exports = {
  displayName: 'platform-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
  // Node's fetch keeps idle keep-alive sockets for a few seconds after the last request.
  forceExit: true,
};
