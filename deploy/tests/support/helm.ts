import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseAllDocuments } from 'yaml';

import { REPO_ROOT } from './repo';

export const CHART = join(REPO_ROOT, 'deploy/helm/quarry');
export const HELM = join(REPO_ROOT, '.tools/bin/helm');
export const KUBE_VERSION = '1.34.0';

/** A rendered Kubernetes object (loosely typed: tests navigate it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are arbitrary YAML trees navigated by the assertions
export type Manifest = Record<string, any>;

export interface RenderOptions {
  /** Extra values files (paths) and inline values (written to a temporary file), in order. */
  files?: string[];
  values?: Record<string, unknown>;
}

function args(options: RenderOptions): string[] {
  const result = ['template', 'quarry', CHART, '--namespace', 'quarry', '--kube-version', KUBE_VERSION];
  for (const file of options.files ?? []) result.push('-f', file);
  if (options.values) {
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-chart-')), 'values.json');
    writeFileSync(file, JSON.stringify(options.values));
    result.push('-f', file);
  }
  return result;
}

/** `helm template` → the manifests (throws with helm's message on failure). */
export function render(options: RenderOptions = {}): Manifest[] {
  const result = spawnSync(HELM, args(options), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

/** `helm template` expected to fail: returns its error output. */
export function renderError(options: RenderOptions): string {
  const result = spawnSync(HELM, args(options), { encoding: 'utf8' });
  if (result.status === 0) throw new Error('helm template succeeded but was expected to fail');
  return result.stderr;
}

export const ofKind = (manifests: Manifest[], kind: string) =>
  manifests.filter((manifest) => manifest['kind'] === kind);

export function named(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find(
    (manifest) => manifest['kind'] === kind && manifest['metadata']?.name === name,
  );
  if (!found)
    throw new Error(
      `no ${kind} ${name} in [${manifests.map((manifest) => `${manifest['kind']}/${manifest['metadata']?.name}`).join(', ')}]`,
    );
  return found;
}

export const PRODUCTION_VALUES = join(CHART, 'values-production.yaml');
