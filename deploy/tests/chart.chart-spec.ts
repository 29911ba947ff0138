import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse, stringify } from 'yaml';

import { TOPICS } from '@quarry/contracts';
import { envSchema } from '@quarry/platform/config';

import { CHART, type Manifest, named, ofKind, PRODUCTION_VALUES, render, renderError } from './support/helm';
import { bytes, container, environmentOf, matches, podLabels } from './support/manifests';
import { configEnvNames } from './support/repo';

/**
 * Assertions on `helm template` output (run by `make chart-check`, after lint and schema
 * validation): workloads are probed, bounded, non-root and wired to every setting; hooks, autoscalers,
 * budgets, monitors and dashboards point at what exists.
 */
const defaults = render();
const production = render({ files: [PRODUCTION_VALUES] });
const valuesYaml = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as {
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
};
const envNames = configEnvNames();
/** Components the chart deploys by default. */
const APPS = ['agent-orchestrator', 'doc-parser', 'gateway', 'scrape-worker'];

describe.each([
  ['default (evaluation) values', defaults],
  ['production values', production],
])('workloads with %s', (_label, manifests) => {
  const deployments = ofKind(manifests, 'Deployment');

  it('deploys the gateway, the scrape workers, the document parsers and the agent orchestrators', () => {
    expect(
      deployments.map((deployment) => deployment['metadata'].labels['app.kubernetes.io/component']).sort(),
    ).toEqual(APPS);
  });

  it('tells the gateway where the other components answer /readyz (the console operator view)', () => {
    const gateway = container(named(manifests, 'Deployment', 'quarry-gateway'));
    const urls = gateway['env'].find((entry: Manifest) => entry['name'] === 'ADMIN_HEALTH_URLS')
      .value as string;
    const entries = urls.split(',').map((entry) => entry.split('='));
    expect(entries.map(([name]) => name).sort()).toEqual(APPS.filter((app) => app !== 'gateway'));
    for (const [name, url] of entries) {
      const service = named(manifests, 'Service', `quarry-${name}`);
      expect(url).toBe(`http://${service['metadata'].name}:${service['spec'].ports[0].port}`);
    }
  });

  it.each(APPS)('%s: probes on /livez and /readyz at the container port', (app) => {
    const spec = container(named(manifests, 'Deployment', `quarry-${app}`));
    const port = spec['ports'].find((candidate: Manifest) => candidate['name'] === 'http');
    expect(port.containerPort).toBe(3002);
    expect(spec['startupProbe'].httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(spec['livenessProbe'].httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(spec['readinessProbe'].httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(spec['env'].find((entry: Manifest) => entry['name'] === 'PORT').value).toBe('3002');
  });

  it.each(APPS)('%s: resources, non-root, read-only root filesystem, no capabilities', (app) => {
    const deployment = named(manifests, 'Deployment', `quarry-${app}`);
    const spec = container(deployment);
    expect(spec['resources'].requests.cpu).toBeDefined();
    expect(spec['resources'].requests.memory).toBeDefined();
    expect(spec['resources'].limits.memory).toBeDefined();
    const pod = deployment['spec'].template.spec;
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec['securityContext']).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const mounts = spec['volumeMounts'].map((mount: Manifest) => mount['mountPath']);
    expect(mounts).toEqual(expect.arrayContaining(['/tmp', '/data', '/var/lib/quarry/blobs']));
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('gives the scrape worker an in-memory /dev/shm for Chromium', () => {
    const deployment = named(manifests, 'Deployment', 'quarry-scrape-worker');
    expect(container(deployment)['volumeMounts']).toContainEqual({ name: 'shm', mountPath: '/dev/shm' });
    expect(
      deployment['spec'].template.spec.volumes.find((volume: Manifest) => volume['name'] === 'shm').emptyDir
        .medium,
    ).toBe('Memory');
  });

  it('rolls pods on configuration changes (checksum annotations)', () => {
    for (const deployment of deployments) {
      const annotations = deployment['spec'].template.metadata.annotations;
      expect(annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
      expect(annotations['checksum/secret']).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('points every Service, HPA and PDB at pods that exist', () => {
    for (const deployment of deployments) {
      const name = deployment['metadata'].name;
      const labels = podLabels(deployment);
      expect(matches(deployment['spec'].selector.matchLabels, labels)).toBe(true);
      const service = named(manifests, 'Service', name);
      expect(matches(service['spec'].selector, labels)).toBe(true);
      expect(service['spec'].ports[0].targetPort).toBe('http');
      const hpa = named(manifests, 'HorizontalPodAutoscaler', name);
      expect(hpa['spec'].scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa['spec'].minReplicas).toBeGreaterThanOrEqual(2);
      expect(deployment['spec'].replicas).toBeUndefined(); // the HPA owns the replica count
      const pdb = named(manifests, 'PodDisruptionBudget', name);
      expect(matches(pdb['spec'].selector.matchLabels, labels)).toBe(true);
      expect(pdb['spec'].minAvailable).toBeLessThan(hpa['spec'].minReplicas);
      // Spread constraints select the component's own pods.
      for (const constraint of deployment['spec'].template.spec.topologySpreadConstraints)
        expect(matches(constraint.labelSelector.matchLabels, labels)).toBe(true);
    }
  });

  it('gives every container only variables the config schema reads, from existing ConfigMaps and Secrets', () => {
    for (const deployment of deployments) {
      const unknown = environmentOf(deployment, manifests).filter((name) => !envNames.includes(name));
      expect(unknown).toEqual([]);
      const spec = container(deployment);
      const database = spec['env'].find((entry: Manifest) => entry['name'] === 'DATABASE_URL');
      expect(database.valueFrom.secretKeyRef.name).toBeDefined();
      const kafka = spec['env'].find((entry: Manifest) => entry['name'] === 'KAFKA_BROKERS').value as string;
      expect(kafka.split(',').length).toBeGreaterThan(0);
    }
  });

  it('ships every dashboard and the alert rules as labelled ConfigMaps', () => {
    const dashboards = ofKind(manifests, 'ConfigMap').filter(
      (map) => map['metadata'].labels['grafana_dashboard'] === '1',
    );
    const files = readdirSync(join(CHART, 'files/dashboards'));
    expect(dashboards).toHaveLength(files.length);
    for (const file of files) {
      const map = dashboards.find((candidate) => file in candidate['data']);
      expect(map?.['data'][file]).toBe(readFileSync(join(CHART, 'files/dashboards', file), 'utf8').trimEnd());
      expect(JSON.parse(map?.['data'][file]).uid).toBe(file.replace(/\.json$/, ''));
    }
  });
});

describe.each([
  ['default (evaluation) values', defaults],
  ['production values', production],
])('document parsers with %s', (_label, manifests) => {
  const deployment = named(manifests, 'Deployment', 'quarry-doc-parser');
  const spec = container(deployment);
  const env = (name: string) => spec['env'].find((entry: Manifest) => entry['name'] === name)?.value;

  it('run the doc-parser image as the doc-parser service', () => {
    expect(spec['image']).toMatch(/^ghcr\.io\/quarry\/doc-parser:/);
    expect(env('SERVICE_NAME')).toBe('doc-parser');
    expect(deployment['spec'].template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30); // the bus's grace for running handlers
  });

  it('share BLOB_DIR and the blob volume with the gateways and scrape workers (parse inputs and results travel as blobs)', () => {
    const blobsOf = (app: string) => {
      const component = named(manifests, 'Deployment', `quarry-${app}`);
      const mount = container(component)['volumeMounts'].find(
        (candidate: Manifest) => candidate['name'] === 'blobs',
      );
      const volume = component['spec'].template.spec.volumes.find(
        (candidate: Manifest) => candidate['name'] === 'blobs',
      );
      const blobDir = container(component)['env'].find(
        (entry: Manifest) => entry['name'] === 'BLOB_DIR',
      ).value;
      return { blobDir, mountPath: mount.mountPath, volume };
    };
    const parser = blobsOf('doc-parser');
    expect(parser.blobDir).toBe(parser.mountPath);
    for (const app of ['gateway', 'scrape-worker']) expect(blobsOf(app)).toEqual(parser);
  });

  it('have room for their parse threads: memory limit above DOC_PARSER_CONCURRENCY × DOC_WORKER_MEMORY_MB', () => {
    const setting = (name: 'DOC_PARSER_CONCURRENCY' | 'DOC_WORKER_MEMORY_MB'): number =>
      Number(
        env(name) ??
          (named(manifests, 'ConfigMap', 'quarry-config')['data'] ?? {})[name] ??
          envSchema.shape[name].parse(undefined),
      );
    const threads = setting('DOC_PARSER_CONCURRENCY') * setting('DOC_WORKER_MEMORY_MB') * 2 ** 20;
    expect(bytes(spec['resources'].limits.memory)).toBeGreaterThan(threads);
    expect(bytes(spec['resources'].requests.memory)).toBeLessThanOrEqual(
      bytes(spec['resources'].limits.memory),
    );
    expect(spec['resources'].limits.cpu).toBeUndefined(); // OCR bursts; a CPU limit would throttle pages into their timeouts
  });

  it('scale no further than the document topic has partitions (idle consumers otherwise)', () => {
    const hpa = named(manifests, 'HorizontalPodAutoscaler', 'quarry-doc-parser');
    expect(hpa['spec'].maxReplicas).toBeLessThanOrEqual(TOPICS.documentParseJobs.partitions);
    expect(
      named(manifests, 'HorizontalPodAutoscaler', 'quarry-scrape-worker')['spec'].maxReplicas,
    ).toBeLessThanOrEqual(TOPICS.scrapeJobs.partitions);
    expect(
      named(manifests, 'HorizontalPodAutoscaler', 'quarry-agent-orchestrator')['spec'].maxReplicas,
    ).toBeLessThanOrEqual(TOPICS.agentWork.partitions);
  });
});

describe('document parsers, switched and tuned', () => {
  it('shares the persistent blob volume (ReadWriteMany) between every component when blobs.persistence is on', () => {
    const manifests = render({ values: { blobs: { persistence: true, storageClass: 'nfs' } } });
    const claim = named(manifests, 'PersistentVolumeClaim', 'quarry-blobs');
    expect(claim['spec'].accessModes).toEqual(['ReadWriteMany']);
    for (const deployment of ofKind(manifests, 'Deployment')) {
      const volume = deployment['spec'].template.spec.volumes.find(
        (candidate: Manifest) => candidate['name'] === 'blobs',
      );
      expect({ name: deployment['metadata'].name, volume }).toEqual({
        name: deployment['metadata'].name,
        volume: { name: 'blobs', persistentVolumeClaim: { claimName: 'quarry-blobs' } },
      });
    }
    expect(ofKind(manifests, 'Deployment').map((deployment) => deployment['metadata'].name)).toContain(
      'quarry-doc-parser',
    );
  });

  it('passes OCR settings to the doc-parser only', () => {
    const manifests = render({
      values: { docParser: { env: { OCR_LANGUAGES: 'eng+deu', DOC_PARSER_CONCURRENCY: 4 } } },
    });
    const parserEnv = container(named(manifests, 'Deployment', 'quarry-doc-parser'))['env'];
    expect(parserEnv).toContainEqual({ name: 'OCR_LANGUAGES', value: 'eng+deu' });
    expect(parserEnv).toContainEqual({ name: 'DOC_PARSER_CONCURRENCY', value: '4' });
    expect(
      container(named(manifests, 'Deployment', 'quarry-scrape-worker'))['env'].map(
        (entry: Manifest) => entry['name'],
      ),
    ).not.toContain('OCR_LANGUAGES');
  });

  it('can be switched off (no Deployment, Service, HPA, PDB or monitoring target)', () => {
    const manifests = render({
      values: { docParser: { enabled: false }, metrics: { serviceMonitor: { enabled: true } } },
    });
    expect(manifests.filter((manifest) => manifest['metadata']?.name === 'quarry-doc-parser')).toEqual([]);
    const monitor = named(manifests, 'ServiceMonitor', 'quarry');
    expect(monitor['spec'].selector.matchExpressions[0].values).not.toContain('doc-parser');
  });

  it('renders a disruption budget only where the pods can spare one (a single pod would block node drains)', () => {
    const single = render({ values: { scrapeWorker: { autoscaling: { enabled: false }, replicaCount: 1 } } });
    const budgets = ofKind(single, 'PodDisruptionBudget').map((pdb) => pdb['metadata'].name as string);
    expect(budgets.some((name) => name.endsWith('scrape-worker'))).toBe(false);
    expect(budgets.some((name) => name.endsWith('gateway'))).toBe(true);
    const pair = render({ values: { scrapeWorker: { autoscaling: { enabled: false }, replicaCount: 2 } } });
    expect(
      ofKind(pair, 'PodDisruptionBudget').some((pdb) =>
        (pdb['metadata'].name as string).endsWith('scrape-worker'),
      ),
    ).toBe(true);
  });

  it('runs with a fixed replica count when autoscaling is off', () => {
    const manifests = render({ values: { docParser: { autoscaling: { enabled: false }, replicaCount: 3 } } });
    expect(named(manifests, 'Deployment', 'quarry-doc-parser')['spec'].replicas).toBe(3);
    expect(ofKind(manifests, 'HorizontalPodAutoscaler').map((hpa) => hpa['metadata'].name)).not.toContain(
      'quarry-doc-parser',
    );
  });
});

describe('evaluation install (defaults)', () => {
  it('bundles PostgreSQL and Kafka and points the services at them', () => {
    const postgres = named(defaults, 'StatefulSet', 'quarry-postgresql');
    const kafka = named(defaults, 'StatefulSet', 'quarry-kafka');
    named(defaults, 'Service', 'quarry-postgresql');
    named(defaults, 'Service', 'quarry-kafka');
    const secret = named(defaults, 'Secret', 'quarry-database');
    const password = secret['stringData'].POSTGRES_PASSWORD as string;
    expect(password).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(secret['stringData'].DATABASE_URL).toBe(
      `postgresql://quarry:${password}@quarry-postgresql:5432/quarry`,
    );
    expect(postgres['spec'].template.spec.containers[0].env).toContainEqual({
      name: 'POSTGRES_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'quarry-database', key: 'POSTGRES_PASSWORD' } },
    });
    const gateway = container(named(defaults, 'Deployment', 'quarry-gateway'));
    expect(gateway['env']).toContainEqual({ name: 'KAFKA_BROKERS', value: 'quarry-kafka:9092' });
    expect(kafka['spec'].template.spec.containers[0].env).toContainEqual({
      name: 'KAFKA_ADVERTISED_LISTENERS',
      value: 'PLAINTEXT://quarry-kafka:9092',
    });
    const clusterId = kafka['spec'].template.spec.containers[0].env.find(
      (entry: Manifest) => entry['name'] === 'CLUSTER_ID',
    ).value;
    expect(clusterId).toMatch(/^[0-9a-f]{21}A$/); // 22 base64url characters = 16 bytes, as Kafka's Uuid wants
  });

  it('migrates after install (the bundled database does not exist before) and lets gateways migrate too', () => {
    const job = named(defaults, 'Job', 'quarry-migrate');
    expect(job['metadata'].annotations['helm.sh/hook']).toBe('post-install,pre-upgrade');
    const spec = job['spec'].template.spec.containers[0];
    expect(spec.image).toBe('ghcr.io/quarry/cli:0.1.0');
    expect(spec.args).toEqual(['migrate']);
    expect(spec.env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'quarry-database', key: 'DATABASE_URL' } },
    });
    expect(container(named(defaults, 'Deployment', 'quarry-gateway'))['env']).toContainEqual({
      name: 'DATABASE_MIGRATE_ON_START',
      value: 'true',
    });
  });

  it('generates the blob signing secret when none is given', () => {
    expect(named(defaults, 'Secret', 'quarry-env')['stringData'].BLOB_SIGNING_SECRET).toMatch(
      /^[A-Za-z0-9]{48}$/,
    );
  });
});

describe('production install', () => {
  it('uses the external PostgreSQL and Kafka, and the operator-provided Secrets', () => {
    expect(ofKind(production, 'StatefulSet')).toEqual([]);
    expect(ofKind(production, 'Secret')).toEqual([]);
    for (const deployment of ofKind(production, 'Deployment')) {
      const spec = container(deployment);
      expect(spec['env']).toContainEqual({
        name: 'DATABASE_URL',
        valueFrom: { secretKeyRef: { name: 'quarry-database', key: 'DATABASE_URL' } },
      });
      expect(spec['env']).toContainEqual({
        name: 'KAFKA_BROKERS',
        value: 'kafka-0.kafka.data.svc:9092,kafka-1.kafka.data.svc:9092,kafka-2.kafka.data.svc:9092',
      });
      expect(spec['env']).toContainEqual({ name: 'DATABASE_MIGRATE_ON_START', value: 'false' });
      expect(spec['env']).toContainEqual({ name: 'PUBLIC_URL', value: 'https://api.quarry.example.com' });
      expect(spec['envFrom']).toContainEqual({ secretRef: { name: 'quarry-env' } });
    }
    expect(container(named(production, 'Deployment', 'quarry-scrape-worker'))['env']).toContainEqual({
      name: 'WORKER_CONCURRENCY',
      value: '24',
    });
  });

  it('migrates, then provisions topics, before install and upgrade', () => {
    const migrate = named(production, 'Job', 'quarry-migrate');
    const topics = named(production, 'Job', 'quarry-topics');
    expect(migrate['metadata'].annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(migrate['metadata'].annotations['helm.sh/hook-weight'])).toBeLessThan(
      Number(topics['metadata'].annotations['helm.sh/hook-weight']),
    );
    expect(migrate['spec'].template.spec.containers[0].env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'quarry-database', key: 'DATABASE_URL' } },
    });
    const provision = topics['spec'].template.spec.containers[0];
    expect(provision.args).toEqual(['topics', 'ensure']);
    expect(provision.env).toContainEqual({ name: 'KAFKA_REPLICATION_FACTOR', value: '3' });
    expect(provision.env.find((entry: Manifest) => entry['name'] === 'KAFKA_BROKERS').value).toContain(
      'kafka-0.kafka.data.svc:9092',
    );
  });

  it('routes the ingress to the gateway service', () => {
    const ingress = named(production, 'Ingress', 'quarry-gateway');
    const backend = ingress['spec'].rules[0].http.paths[0].backend.service;
    expect(backend).toEqual({ name: 'quarry-gateway', port: { name: 'http' } });
    expect(
      named(production, 'Service', 'quarry-gateway')['spec'].ports.map((port: Manifest) => port['name']),
    ).toContain('http');
    expect(ingress['spec'].tls[0]).toEqual({
      hosts: ['api.quarry.example.com'],
      secretName: 'quarry-api-tls',
    });
  });

  it('monitors every deployed component and keeps the services’ own `service` label', () => {
    const monitor = named(production, 'ServiceMonitor', 'quarry');
    expect(monitor['metadata'].labels.release).toBe('kube-prometheus-stack');
    expect(monitor['spec'].endpoints).toEqual([
      { port: 'http', path: '/metrics', interval: '30s', honorLabels: true },
    ]);
    for (const service of ofKind(production, 'Service')) {
      const labels = service['metadata'].labels;
      const selected =
        matches(monitor['spec'].selector.matchLabels, labels) &&
        monitor['spec'].selector.matchExpressions.every((expression: Manifest) =>
          expression['values'].includes(labels[expression['key']]),
        );
      expect(selected).toBe(true);
      expect(service['spec'].ports.some((port: Manifest) => port['name'] === 'http')).toBe(true);
    }
  });

  it('ships the alert rules as a PrometheusRule that promtool accepts', () => {
    const rule = named(production, 'PrometheusRule', 'quarry');
    expect(rule['spec']).toEqual(parse(readFileSync(join(CHART, 'files/rules/quarry-alerts.yaml'), 'utf8')));
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-rules-')), 'rules.yaml');
    writeFileSync(file, stringify(rule['spec']));
    const check = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
  });
});

describe('environment wiring', () => {
  it('covers every variable of the config schema: ConfigMap, Secret or set by the chart', () => {
    // Every config and secret value set, so each lands in the ConfigMap or the Secret.
    const config = Object.fromEntries(
      Object.keys(valuesYaml.config).map((name) => [name, `x-${name.toLowerCase()}`]),
    );
    const secrets = Object.fromEntries(
      Object.keys(valuesYaml.secrets)
        .filter((name) => name !== 'existingSecret')
        .map((name) => [name, `s-${name.toLowerCase()}`]),
    );
    const manifests = render({ values: { config, secrets } });
    for (const deployment of ofKind(manifests, 'Deployment'))
      expect(environmentOf(deployment, manifests)).toEqual([...envNames].sort());
  });

  it('keeps secrets out of the ConfigMap', () => {
    const manifests = render({
      values: {
        secrets: {
          BOOTSTRAP_API_KEY: 'fc-secret-key',
          OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer abc',
        },
      },
    });
    const configMap = named(manifests, 'ConfigMap', 'quarry-config');
    expect(JSON.stringify(configMap['data'])).not.toMatch(/fc-secret-key|Bearer abc/);
    expect(named(manifests, 'Secret', 'quarry-env')['stringData']).toMatchObject({
      BOOTSTRAP_API_KEY: 'fc-secret-key',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer abc',
    });
  });

  it('leaves empty settings unset so the service defaults apply', () => {
    expect(named(defaults, 'ConfigMap', 'quarry-config')['data']).toEqual({ NODE_ENV: 'production' });
  });

  it('changes the checksum annotations of every pod when config or secrets change', () => {
    const before = ofKind(defaults, 'Deployment').map(
      (deployment) => deployment['spec'].template.metadata.annotations,
    );
    const changedConfig = ofKind(render({ values: { config: { LOG_LEVEL: 'debug' } } }), 'Deployment').map(
      (deployment) => deployment['spec'].template.metadata.annotations,
    );
    const changedSecret = ofKind(
      render({ values: { secrets: { BOOTSTRAP_API_KEY: 'fc-other' } } }),
      'Deployment',
    ).map((deployment) => deployment['spec'].template.metadata.annotations);
    before.forEach((annotations, index) => {
      expect(changedConfig[index]['checksum/config']).not.toBe(annotations['checksum/config']);
      expect(changedConfig[index]['checksum/secret']).toBe(annotations['checksum/secret']);
      expect(changedSecret[index]['checksum/secret']).not.toBe(annotations['checksum/secret']);
    });
  });

  it('passes per-component env and refuses to override what the chart sets', () => {
    const manifests = render({ values: { scrapeWorker: { env: { BROWSER_CONCURRENCY: 6 } } } });
    expect(container(named(manifests, 'Deployment', 'quarry-scrape-worker'))['env']).toContainEqual({
      name: 'BROWSER_CONCURRENCY',
      value: '6',
    });
    expect(
      container(named(manifests, 'Deployment', 'quarry-gateway'))['env'].map(
        (entry: Manifest) => entry['name'],
      ),
    ).not.toContain('BROWSER_CONCURRENCY');
    expect(renderError({ values: { gateway: { env: { KAFKA_BROKERS: 'elsewhere:9092' } } } })).toMatch(
      /gateway\.env\.KAFKA_BROKERS: the chart sets KAFKA_BROKERS itself/,
    );
  });
});
