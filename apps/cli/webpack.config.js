const { nodeAppWebpackConfig } = require('../../tools/webpack/node-app.webpack.cjs');

module.exports = nodeAppWebpackConfig({ app: 'cli' });
