const { nodeAppWebpackConfig } = require('../../tools/webpack/node-app.webpack.cjs');

// content-worker: the agent reads the pages it collected offline in a content worker process.
module.exports = nodeAppWebpackConfig({ app: 'agent-orchestrator', workers: ['content-worker'] });
