module.exports = {
  displayName: 'console',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // marked ships ES modules only: let the SWC transform compile it for Jest's CommonJS runtime.
  transformIgnorePatterns: ['/node_modules/(?!(marked)/)'],
};
