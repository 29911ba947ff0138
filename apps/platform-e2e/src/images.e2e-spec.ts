import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

import { REPO_ROOT } from './support/service-process';

/**
 * The Docker images install only the production dependencies listed in the pruned package.json the
 * build writes next to each bundle (docker/Dockerfile, `npm install --omit=dev`). A package the bundle
 * requires but that list omits would crash the container at start, so every built bundle is checked.
 */
const builtins = new Set(builtinModules);
const packageOf = (request: string) =>
  request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];

const apps = readdirSync(join(REPO_ROOT, 'apps')).filter((name) =>
  existsSync(join(REPO_ROOT, 'apps', name, 'webpack.config.js')),
);

describe.each(apps)('bundle of %s', (app) => {
  const dir = join(REPO_ROOT, 'dist/apps', app);

  it('lists every package its bundles require in the pruned package.json the image installs', () => {
    expect(existsSync(join(dir, 'main.js'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(existsSync(join(dir, 'package-lock.json'))).toBe(true);
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const bundles = readdirSync(dir).filter((file) => file.endsWith('.js'));
    const required = new Set<string>();
    for (const bundle of bundles) {
      const source = readFileSync(join(dir, bundle), 'utf8');
      for (const match of source.matchAll(/require\("([^"]+)"\)/g)) {
        const request = match[1];
        if (request.startsWith('.') || request.startsWith('node:') || builtins.has(request)) continue;
        required.add(packageOf(request));
      }
    }
    expect(required.size).toBeGreaterThan(0);
    expect([...required].filter((name) => !declared.has(name))).toEqual([]);
  });
});
