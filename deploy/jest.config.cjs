// Checks of the deployment artefacts that need no tools: Dockerfiles against the build outputs,
// dashboards generated from their source, the chart's env list against the config schema.
module.exports = {
  displayName: 'deploy',
  preset: '../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/tests/**/*.spec.ts'],
};
