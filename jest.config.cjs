// Root Jest configuration: every project's jest.config.cts, run in one Jest process (see Makefile targets).
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({ projects: await getJestProjectsAsync(), maxWorkers: 2 });
