import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { generate, MANAGED_ENV, settings } from '../helm/generate';
import { CHART } from './support/helm';
import { configEnvNames, readRepoFile } from './support/repo';

/**
 * One list of settings: the config schema with its documentation (ENV_DOCS). The README
 * configuration table, the chart's values (config/secrets), its schema and its README are generated
 * from it; these checks fail when a variable is added without regenerating (npx nx run deploy:chart-docs).
 */
describe('chart environment wiring and docs', () => {
  it('are generated from the config schema and its docs (no stale file)', () => {
    expect(generate(true)).toEqual([]);
  });

  it('classify every variable of the config schema exactly once: config, secret or set by the chart', () => {
    const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as {
      config: Record<string, unknown>;
      secrets: Record<string, unknown>;
    };
    const configKeys = Object.keys(values.config);
    const secretKeys = Object.keys(values.secrets).filter((key) => key !== 'existingSecret');
    const managed = Object.keys(MANAGED_ENV);
    const all = [...configKeys, ...secretKeys, ...managed];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...configEnvNames()].sort());
  });

  it('set in the chart templates exactly the variables documented as set by the chart', () => {
    const helpers = readFileSync(join(CHART, 'templates/_helpers.tpl'), 'utf8');
    const managedBlock = helpers.slice(
      helpers.indexOf('define "quarry.managedEnv"'),
      helpers.indexOf('define "quarry.managedEnvNames"'),
    );
    const names = [...managedBlock.matchAll(/- name: ([A-Z_]+)/g)].map((match) => match[1]);
    expect(names.sort()).toEqual(Object.keys(MANAGED_ENV).sort());
    const namesList = /define "quarry.managedEnvNames" -}}\n(.*)\n/.exec(helpers)?.[1].split(' ') ?? [];
    expect(namesList.sort()).toEqual(Object.keys(MANAGED_ENV).sort());
  });

  it('keep secrets (keys, tokens, proxy credentials) out of the ConfigMap values', () => {
    for (const setting of settings().filter((candidate) => candidate.where === 'config'))
      expect(setting.name).not.toMatch(/SECRET|PASSWORD|_TOKEN$|API_KEY|HEADERS/);
  });

  it('document every variable of the config schema in the README table, in schema order', () => {
    const readme = readRepoFile('README.md');
    const table = readme.slice(
      readme.indexOf('<!-- BEGIN GENERATED config'),
      readme.indexOf('<!-- END GENERATED config'),
    );
    const names = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]);
    expect(names).toEqual(configEnvNames());
  });
});
