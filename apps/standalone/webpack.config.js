const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

module.exports = {
  output: { path: join(__dirname, '../../dist/apps/standalone'), clean: true },
  devtool: 'source-map',
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.json',
      skipTypeChecking: true,
      // Parse worker threads run their own bundle next to main.js (libs/documents/parsing).
      additionalEntryPoints: [{ entryName: 'parse-worker', entryPath: 'libs/documents/parsing/src/lib/worker/parse-worker.main.ts' }],
      assets: [{ input: 'prisma/migrations', glob: '**/*', output: 'prisma/migrations' }],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
    }),
  ],
};
