// `make test-clients`: the Firecrawl clients other people use (firecrawl-py, firecrawl-mcp,
// firecrawl-cli, installed by scripts/infra/clients.sh) driven against the one-process server.
module.exports = {
  displayName: 'platform-clients',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/clients/**/*.clients-spec.ts'],
  testTimeout: 900_000,
};
