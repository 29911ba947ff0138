import baseConfig from '../eslint.config.mjs';

export default [
  ...baseConfig,
  // The content benchmark's anchors (a Rust build and a Python virtualenv) and caches are not ours.
  { ignores: ['content/.anchors/**', 'content/.cache/**'] },
  // Benchmarks are scripts run by hand: their settings (database URL, page counts, log files) come from the environment.
  // They measure libraries (sometimes their internals) from outside the product's module graph, so
  // the product's layer boundaries do not apply to them.
  { files: ['**/*.ts'], rules: { 'no-restricted-syntax': 'off', '@nx/enforce-module-boundaries': 'off' } },
];
