// The benchmark harness's own checks (not the benchmarks): the README table is in sync with
// bench/results, and the aggregator runs a cheap benchmark end to end in quick mode.
module.exports = {
  displayName: 'bench',
  preset: '../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/tests/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  modulePathIgnorePatterns: ['<rootDir>/node_modules/'],
};
