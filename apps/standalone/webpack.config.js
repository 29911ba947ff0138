const { nodeAppWebpackConfig } = require('../../tools/webpack/node-app.webpack.cjs');

module.exports = nodeAppWebpackConfig({
  app: 'standalone',
  workers: ['parse-worker', 'content-worker'],
  console: true,
});
