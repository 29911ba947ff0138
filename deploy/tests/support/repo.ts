import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { envSchema } from '@quarry/platform/config';

export const REPO_ROOT = join(__dirname, '../../..');

export const readRepoFile = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
export const repoPathExists = (path: string) => existsSync(join(REPO_ROOT, path));

export interface BuiltApp {
  name: string;
  /** Webpack output directory relative to the repository root, e.g. `dist/apps/gateway`. */
  outputDir: string;
  /** File name of the main bundle in `outputDir`. */
  mainFile: string;
  generatesPackageJson: boolean;
}

/**
 * Apps with a webpack build (everything under apps/ except test projects): each webpack.config.js calls
 * the shared nodeAppWebpackConfig (tools/webpack/node-app.webpack.cjs) with its name.
 */
export function builtApps(): BuiltApp[] {
  const shared = readRepoFile('tools/webpack/node-app.webpack.cjs');
  const output = /path:\s*join\(__dirname,\s*'\.\.\/\.\.\/dist\/apps',\s*app\)/.test(shared);
  const main = /main:\s*'\.\/src\/([^']+)\.ts'/.exec(shared);
  if (!output || !main)
    throw new Error('tools/webpack/node-app.webpack.cjs: cannot read the output path or main entry');
  return readdirSync(join(REPO_ROOT, 'apps'))
    .filter((name) => repoPathExists(`apps/${name}/webpack.config.js`))
    .map((name) => {
      const app = /nodeAppWebpackConfig\(\{\s*app:\s*'([^']+)'/.exec(
        readRepoFile(`apps/${name}/webpack.config.js`),
      );
      if (!app)
        throw new Error(`apps/${name}/webpack.config.js: does not call nodeAppWebpackConfig({ app: … })`);
      return {
        name,
        outputDir: `dist/apps/${app[1]}`,
        mainFile: `${main[1]}.js`,
        generatesPackageJson: /generatePackageJson:\s*true/.test(shared),
      };
    });
}

/** Names of the environment variables the config schema reads (libs/platform/config/src/lib/env.schema.ts). */
export function configEnvNames(): string[] {
  return Object.keys(envSchema.shape);
}
