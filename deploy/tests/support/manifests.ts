import { type Manifest, named, ofKind } from './helm';

// Readers of rendered manifests shared by the chart assertions (*.chart-spec.ts).
export const container = (deployment: Manifest): Manifest => deployment['spec'].template.spec.containers[0];
export const podLabels = (deployment: Manifest): Record<string, string> =>
  deployment['spec'].template.metadata.labels;
/** Bytes of a Kubernetes memory quantity (`512Mi`, `3Gi`, `2G`, plain bytes). */
export function bytes(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!match) throw new Error(`unreadable memory quantity ${quantity}`);
  const units: Record<string, number> = {
    '': 1,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Number(match[1]) * units[match[2] ?? ''];
}
export const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** Names of the variables a container receives: its env plus the keys of the ConfigMaps and Secrets it imports. */
export function environmentOf(deployment: Manifest, manifests: Manifest[]): string[] {
  const spec = container(deployment);
  const names = new Set<string>((spec['env'] ?? []).map((entry: Manifest) => entry['name']));
  for (const source of spec['envFrom'] ?? []) {
    if (source.configMapRef)
      for (const key of Object.keys(named(manifests, 'ConfigMap', source.configMapRef.name)['data'] ?? {}))
        names.add(key);
    if (source.secretRef) {
      const secret = manifests.find(
        (manifest) => manifest['kind'] === 'Secret' && manifest['metadata'].name === source.secretRef.name,
      );
      for (const key of Object.keys(secret?.['stringData'] ?? secret?.['data'] ?? {})) names.add(key);
    }
  }
  return [...names].sort();
}

/** Hook events of an object (none: an ordinary release object). */
export const hookPhases = (manifest: Manifest): string[] =>
  String(manifest['metadata'].annotations?.['helm.sh/hook'] ?? '')
    .split(',')
    .filter(Boolean);
export const hookWeight = (manifest: Manifest): number =>
  Number(manifest['metadata'].annotations?.['helm.sh/hook-weight'] ?? 0);
export const identity = (manifest: Manifest) => `${manifest['kind']}/${manifest['metadata'].name}`;

/** Objects a hook Job's pod needs when it starts: its ServiceAccount, the Secrets and ConfigMaps it reads, the Services it connects to. */
export function requirementsOf(job: Manifest, manifests: Manifest[]): Manifest[] {
  const pod = job['spec'].template.spec;
  const wanted: [string, string][] = [['ServiceAccount', pod.serviceAccountName ?? 'default']];
  for (const spec of pod.containers as Manifest[]) {
    for (const entry of spec['env'] ?? []) {
      if (entry.valueFrom?.secretKeyRef) wanted.push(['Secret', entry.valueFrom.secretKeyRef.name]);
      if (entry.valueFrom?.configMapKeyRef) wanted.push(['ConfigMap', entry.valueFrom.configMapKeyRef.name]);
      // Services of the release the Job connects to (host names in the values, e.g. KAFKA_BROKERS).
      for (const service of ofKind(manifests, 'Service'))
        if (new RegExp(`(^|[,/@])${service['metadata'].name}(:|$|,)`).test(String(entry.value ?? '')))
          wanted.push(['Service', service['metadata'].name]);
    }
    for (const source of spec['envFrom'] ?? [])
      wanted.push(
        source.secretRef ? ['Secret', source.secretRef.name] : ['ConfigMap', source.configMapRef.name],
      );
  }
  for (const volume of pod.volumes ?? []) {
    if (volume.secret) wanted.push(['Secret', volume.secret.secretName]);
    if (volume.configMap) wanted.push(['ConfigMap', volume.configMap.name]);
  }
  // Objects the chart does not render (existing Secrets, the namespace's default account) are the operator's.
  return wanted.flatMap(([kind, name]) =>
    manifests.filter((manifest) => manifest['kind'] === kind && manifest['metadata'].name === name),
  );
}

/**
 * What would go wrong at `helm install`/`upgrade`: Helm creates the hooks of a phase one by one in
 * weight order, ordinary release objects only after every pre-install hook (and deletes
 * `hook-succeeded` hooks once all hooks of the phase succeeded). A hook Job may therefore use, in
 * each of its phases, a hook object of that phase with a lower weight, or an ordinary object unless
 * the phase is pre-install (on upgrade they exist from the previous release; after install, all do).
 */
export function hookProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  for (const job of ofKind(manifests, 'Job').filter((candidate) => hookPhases(candidate).length > 0)) {
    for (const phase of hookPhases(job)) {
      for (const needed of requirementsOf(job, manifests)) {
        const phases = hookPhases(needed);
        if (phases.length === 0 && phase === 'pre-install')
          problems.push(
            `${identity(job)} (${phase}) needs ${identity(needed)}, created after the pre-install hooks`,
          );
        if (phases.length > 0 && !phases.includes(phase))
          problems.push(
            `${identity(job)} (${phase}) needs ${identity(needed)}, a hook of ${phases.join(',')} only`,
          );
        if (phases.includes(phase) && hookWeight(needed) >= hookWeight(job))
          problems.push(
            `${identity(job)} (${phase}) needs ${identity(needed)}, created no earlier (weight ${hookWeight(needed)})`,
          );
      }
    }
  }
  return problems;
}
