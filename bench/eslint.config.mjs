import baseConfig from '../eslint.config.mjs';

export default [
  ...baseConfig,
  // Benchmarks are scripts run by hand: their settings (database URL, page counts, log files) come from the environment.
  { files: ['**/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
];
