// The webpack configuration of every Node service (apps/*/webpack.config.js call it with what differs).
const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

/** Worker bundles built next to main.js, by the library that starts them. */
const WORKER_ENTRIES = {
  // Parse worker threads (libs/documents/parsing).
  'parse-worker': 'libs/documents/parsing/src/lib/worker/parse-worker.main.ts',
  // Content worker processes (libs/scrape/content), with the formats' page tasks (libs/scrape/formats).
  'content-worker': 'libs/scrape/formats/src/lib/tasks/page-worker.main.ts',
};

/**
 * @param {object} options
 * @param {string} options.app the app's folder name under apps/ (and dist/apps/)
 * @param {(keyof typeof WORKER_ENTRIES)[]} [options.workers] worker bundles the app starts
 * @param {boolean} [options.console] serve the web console (apps/console, built first: implicit dependency) under /console
 */
function nodeAppWebpackConfig({ app, workers = [], console = false }) {
  return {
    output: { path: join(__dirname, '../../dist/apps', app), clean: true },
    devtool: 'source-map',
    plugins: [
      new NxAppWebpackPlugin({
        target: 'node',
        compiler: 'tsc',
        main: './src/main.ts',
        tsConfig: './tsconfig.json',
        skipTypeChecking: true,
        ...(workers.length
          ? {
              additionalEntryPoints: workers.map((entryName) => ({
                entryName,
                entryPath: WORKER_ENTRIES[entryName],
              })),
            }
          : {}),
        assets: [
          { input: 'prisma/migrations', glob: '**/*', output: 'prisma/migrations' },
          ...(console ? [{ input: 'dist/apps/console', glob: '**/*', output: 'console' }] : []),
        ],
        optimization: false,
        outputHashing: 'none',
        generatePackageJson: true,
        sourceMap: true,
      }),
    ],
  };
}

module.exports = { nodeAppWebpackConfig };
