// `make chart-check`: assertions on `helm template` output (needs .tools/bin/helm; see scripts/ops/chart-check.sh).
module.exports = {
  displayName: 'chart',
  preset: '../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/tests/**/*.chart-spec.ts'],
  testTimeout: 120_000,
};
