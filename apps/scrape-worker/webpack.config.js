const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

module.exports = {
  output: { path: join(__dirname, '../../dist/apps/scrape-worker'), clean: true },
  devtool: 'source-map',
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.json',
      skipTypeChecking: true,
      // Content worker threads run their own bundle next to main.js (libs/scrape/content).
      additionalEntryPoints: [
        { entryName: 'content-worker', entryPath: 'libs/scrape/content/src/threads/content-thread.main.ts' },
      ],
      assets: [{ input: 'prisma/migrations', glob: '**/*', output: 'prisma/migrations' }],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
    }),
  ],
};
