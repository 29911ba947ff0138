import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { stringify } from 'yaml';

import { type Manifest, named, ofKind, PRODUCTION_VALUES, render, renderError } from './support/helm';
import { hookProblems } from './support/manifests';
import { REPO_ROOT } from './support/repo';

/**
 * Assertions on `helm template` output, continued from chart.chart-spec.ts: the migration and topics
 * hooks, rolling on database changes, refused values and the schema validator of the pipeline.
 */
const defaults = render();
const production = render({ files: [PRODUCTION_VALUES] });

describe('external database given as a URL', () => {
  const manifests = render({
    values: { postgresql: { bundled: { enabled: false }, external: { url: 'postgresql://u:p@db:5432/q' } } },
  });

  it('gives the pre-install migration hook its own copy of the URL (the release Secret does not exist yet)', () => {
    const hookSecret = named(manifests, 'Secret', 'quarry-hooks');
    const job = named(manifests, 'Job', 'quarry-migrate');
    expect(hookSecret['metadata'].annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(hookSecret['metadata'].annotations['helm.sh/hook-weight'])).toBeLessThan(
      Number(job['metadata'].annotations['helm.sh/hook-weight']),
    );
    expect(hookSecret['stringData'].DATABASE_URL).toBe('postgresql://u:p@db:5432/q');
    expect(job['spec'].template.spec.containers[0].env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'quarry-hooks', key: 'DATABASE_URL' } },
    });
    expect(named(manifests, 'Secret', 'quarry-database')['stringData']).toEqual({
      DATABASE_URL: 'postgresql://u:p@db:5432/q',
    });
  });
});

describe('hooks (migrations, topics)', () => {
  const externalDatabase = {
    postgresql: { bundled: { enabled: false }, external: { url: 'postgresql://u:p@db:5432/q' } },
  };
  const externalKafka = {
    kafka: {
      bundled: { enabled: false },
      external: { brokers: ['k1:9093'] },
      provisionTopics: { enabled: true },
    },
  };
  const cases: [string, Manifest[]][] = [
    ['production values', production],
    [
      'defaults with topic provisioning',
      render({ values: { kafka: { provisionTopics: { enabled: true } } } }),
    ],
    [
      'external database URL, bundled Kafka',
      render({ values: { ...externalDatabase, kafka: { provisionTopics: { enabled: true } } } }),
    ],
    ['bundled PostgreSQL, external Kafka', render({ values: externalKafka })],
    [
      'external database URL and Kafka with SASL',
      render({
        values: {
          ...externalDatabase,
          ...externalKafka,
          config: { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' },
          secrets: { KAFKA_SASL_PASSWORD: 'p' },
        },
      }),
    ],
    [
      'an existing ServiceAccount',
      render({
        files: [PRODUCTION_VALUES],
        values: { serviceAccount: { create: false, name: 'quarry-runner' } },
      }),
    ],
  ];

  it.each(cases)('%s: every hook Job finds what it needs when it runs', (_label, manifests) => {
    expect(ofKind(manifests, 'Job').length).toBeGreaterThan(0);
    expect(hookProblems(manifests)).toEqual([]);
  });

  it('would catch a pre-install Job using the release ServiceAccount or the bundled Kafka (the check can fail)', () => {
    const manifests = structuredClone(
      render({ values: { ...externalDatabase, kafka: { provisionTopics: { enabled: true } } } }),
    );
    const migrate = named(manifests, 'Job', 'quarry-migrate');
    migrate['spec'].template.spec.serviceAccountName = 'quarry';
    named(manifests, 'Job', 'quarry-topics')['metadata'].annotations['helm.sh/hook'] =
      'pre-install,pre-upgrade';
    expect(hookProblems(manifests)).toEqual([
      'Job/quarry-migrate (pre-install) needs ServiceAccount/quarry, created after the pre-install hooks',
      'Job/quarry-topics (pre-install) needs Service/quarry-kafka, created after the pre-install hooks',
    ]);
  });

  it('runs the hooks under their own ServiceAccount, with the annotations of the release one (cloud IAM)', () => {
    const manifests = render({
      files: [PRODUCTION_VALUES],
      values: { serviceAccount: { annotations: { 'iam.gke.io/gcp-service-account': 'quarry@p.iam' } } },
    });
    const account = named(manifests, 'ServiceAccount', 'quarry-hooks');
    expect(account['metadata'].annotations).toMatchObject({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      'iam.gke.io/gcp-service-account': 'quarry@p.iam',
    });
    expect(account['automountServiceAccountToken']).toBe(false);
    for (const job of ofKind(manifests, 'Job'))
      expect(job['spec'].template.spec.serviceAccountName).toBe('quarry-hooks');
    expect(named(manifests, 'ServiceAccount', 'quarry')['metadata'].annotations).toEqual({
      'iam.gke.io/gcp-service-account': 'quarry@p.iam',
    });
    // Without a chart-made account, the hooks use the operator's (it exists before install).
    const existing = render({
      files: [PRODUCTION_VALUES],
      values: { serviceAccount: { create: false, name: 'quarry-runner' } },
    });
    expect(ofKind(existing, 'ServiceAccount')).toEqual([]);
    for (const job of ofKind(existing, 'Job'))
      expect(job['spec'].template.spec.serviceAccountName).toBe('quarry-runner');
  });

  it('provisions topics after install when Kafka is bundled, before install when it is external (independently of PostgreSQL)', () => {
    const topicsHook = (values: Record<string, unknown>) =>
      named(render({ values }), 'Job', 'quarry-topics')['metadata'].annotations['helm.sh/hook'];
    expect(topicsHook({ ...externalDatabase, kafka: { provisionTopics: { enabled: true } } })).toBe(
      'post-install,pre-upgrade',
    );
    expect(topicsHook(externalKafka)).toBe('pre-install,pre-upgrade');
    const mixed = render({ values: { ...externalDatabase, kafka: { provisionTopics: { enabled: true } } } });
    expect(named(mixed, 'Job', 'quarry-migrate')['metadata'].annotations['helm.sh/hook']).toBe(
      'pre-install,pre-upgrade',
    );
    expect(named(mixed, 'ServiceAccount', 'quarry-hooks')['metadata'].annotations['helm.sh/hook']).toBe(
      'post-install,pre-install,pre-upgrade',
    );
  });

  it('gives the topics Job the Kafka TLS and SASL settings, the password from a hook Secret or the existing Secret', () => {
    const sasl = {
      config: { KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'quarry' },
    };
    const inline = render({ values: { ...externalKafka, ...sasl, secrets: { KAFKA_SASL_PASSWORD: 'pw' } } });
    const env = (manifests: Manifest[]) =>
      named(manifests, 'Job', 'quarry-topics')['spec'].template.spec.containers[0].env;
    expect(env(inline)).toEqual(
      expect.arrayContaining([
        { name: 'KAFKA_SSL', value: 'true' },
        { name: 'KAFKA_SASL_MECHANISM', value: 'scram-sha-512' },
        { name: 'KAFKA_SASL_USERNAME', value: 'quarry' },
        {
          name: 'KAFKA_SASL_PASSWORD',
          valueFrom: { secretKeyRef: { name: 'quarry-hooks', key: 'KAFKA_SASL_PASSWORD' } },
        },
      ]),
    );
    expect(named(inline, 'Secret', 'quarry-hooks')['stringData']).toEqual({ KAFKA_SASL_PASSWORD: 'pw' });
    expect(named(inline, 'Secret', 'quarry-env')['stringData'].KAFKA_SASL_PASSWORD).toBe('pw'); // the services' copy
    const existing = render({ files: [PRODUCTION_VALUES], values: sasl });
    expect(env(existing)).toContainEqual({
      name: 'KAFKA_SASL_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'quarry-env', key: 'KAFKA_SASL_PASSWORD' } },
    });
    expect(ofKind(existing, 'Secret')).toEqual([]);
    // No SASL configured: no password variable at all.
    expect(env(production).map((entry: Manifest) => entry['name'])).not.toContain('KAFKA_SASL_PASSWORD');
  });
});

describe('rolling on database changes', () => {
  const checksums = (values: Record<string, unknown>) =>
    ofKind(render({ values }), 'Deployment').map(
      (deployment) => deployment['spec'].template.metadata.annotations['checksum/database'] as string,
    );

  it('changes checksum/database of every pod when the rendered DATABASE_URL changes', () => {
    const external = (url: string) => ({ postgresql: { bundled: { enabled: false }, external: { url } } });
    const before = checksums(external('postgresql://u:p@db:5432/q'));
    const after = checksums(external('postgresql://u:rotated@db:5432/q'));
    expect(before.every((checksum) => /^[0-9a-f]{64}$/.test(checksum))).toBe(true);
    before.forEach((checksum, index) => expect(after[index]).not.toBe(checksum));
    expect(checksums(external('postgresql://u:p@db:5432/q'))).toEqual(before); // stable when nothing changed
    const bundled = (password: string) => checksums({ postgresql: { bundled: { password } } });
    expect(bundled('one')).not.toEqual(bundled('two'));
    expect(bundled('one')).toEqual(bundled('one'));
  });
});

describe('refused values', () => {
  it.each([
    [
      { postgresql: { bundled: { enabled: false } } },
      /postgresql: enable postgresql.bundled or set postgresql.external/,
    ],
    [
      { postgresql: { external: { url: 'postgresql://x@y/z' } } },
      /postgresql.external.\* is set while postgresql.bundled.enabled=true/,
    ],
    [{ kafka: { bundled: { enabled: false } } }, /kafka: enable kafka.bundled or set kafka.external.brokers/],
    [
      { docParser: { env: { BLOB_DIR: '/elsewhere' } } },
      /docParser\.env\.BLOB_DIR: the chart sets BLOB_DIR itself/,
    ],
    [{ docParser: { replicas: 2 } }, /docParser[\s\S]*replicas/],
    [{ config: { NOT_A_SETTING: 'x' } }, /NOT_A_SETTING/],
    [
      { gateway: { autoscaling: { enabled: true, targetCPUUtilizationPercentage: 500 } } },
      /targetCPUUtilizationPercentage/,
    ],
    [{ kafka: { bundled: { enabled: false }, external: { brokers: ['no-port'] } } }, /brokers/],
  ])('%j', (values, message) => {
    expect(renderError({ values })).toMatch(message);
  });
});

describe('the schema validator of the pipeline', () => {
  it('rejects a manifest with an unknown field (so a passing validation means something)', () => {
    const deployment = structuredClone(named(defaults, 'Deployment', 'quarry-gateway'));
    deployment['spec'].template.spec.containers[0].livenessProbe.httpGet.pathh = '/livez';
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-validate-')), 'bad.yaml');
    writeFileSync(file, stringify(deployment));
    const result = spawnSync(
      join(REPO_ROOT, '.tools/venv/bin/kubernetes-validate'),
      ['--strict', '-k', '1.34.0', file],
      { encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/pathh/);
  });
});
