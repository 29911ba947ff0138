module.exports = {
  displayName: 'scrape-content',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.integration-spec.ts'],
  // linkedom's selector engine (css-select and friends) ships ESM only; the shared preset's list lacks it.
  transformIgnorePatterns: [
    '/node_modules/(?!(linkedom|htmlparser2|domhandler|domutils|dom-serializer|entities|uhyphen|html-escaper|css-select|css-what|nth-check|boolbase|domelementtype)/)',
  ],
};
