import baseConfig from '../../../eslint.config.mjs';

export default [
  ...baseConfig,
  // This project's job is to read the environment (configuration, test infrastructure).
  { files: ['**/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
];
