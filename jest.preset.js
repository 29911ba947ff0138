// Shared Jest settings: SWC transform (decorator metadata for Nest), tsconfig path aliases via Nx's resolver.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const swcrc = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));
delete swcrc.$schema;

module.exports = {
  testEnvironment: 'node',
  resolver: '@nx/jest/plugins/resolver',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': ['@swc/jest', { ...swcrc, swcrc: false }],
  },
  // ESM-only dependencies that Jest's CommonJS runtime must see transformed.
  transformIgnorePatterns: [
    '/node_modules/(?!(linkedom|htmlparser2|domhandler|domutils|dom-serializer|entities|uhyphen|html-escaper|cssom|cssomnom|css-select|css-what|nth-check|boolbase|domelementtype|@mendable|firecrawl)/)',
  ],
  testMatch: ['**/?(*.)+(spec).ts'],
  coverageReporters: ['text-summary'],
};
