/**
 * Summary of V8 CPU profiles (`node --cpu-prof`): where the samples went by package or bundle (self
 * time), the top functions by self time, and the inclusive time of named functions (synchronous part
 * of their stacks), leaving out the profiler's own inspector work. Used to justify performance changes (issue 14).
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/support/profile-summary.ts <file.cpuprofile>… [--top 25] [--focus name,name]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** node_modules package, Node internals, the service bundle, or V8's pseudo frames. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return 'node internals';
  const app = /dist\/apps\/([^/]+)\//.exec(url);
  if (app) return `${app[1]} bundle (product code)`;
  return url.replace(/^file:\/\//, '');
}

export function summarise(files: string[], top = 25, focus: string[] = []): string {
  const selfByModule = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfUs = new Map<number, number>();
    profile.samples.forEach((id, index) =>
      selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
    );
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    // The profiler's own work (the preload's inspector session stopping a profile) is not the service's.
    const underInspector = (id: number): boolean => {
      for (let current: number | undefined = id; current !== undefined; current = parent.get(current))
        if (byId.get(current)?.callFrame.url === 'node:inspector') return true;
      return false;
    };
    for (const [id, us] of selfUs) {
      const node = byId.get(id);
      if (!node || underInspector(id)) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      total += us;
      const module = moduleOf(url, functionName);
      selfByModule.set(module, (selfByModule.get(module) ?? 0) + us);
      const key = `${functionName || '(anonymous)'} ${module}:${lineNumber + 1}`;
      selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + us);
      if (focus.length) {
        // Each focused name counts once per sample, however deep the recursion.
        const seen = new Set<string>();
        for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
          const name = byId.get(current)?.callFrame.functionName ?? '';
          if (focus.includes(name) && !seen.has(name)) {
            seen.add(name);
            inclusive.set(name, (inclusive.get(name) ?? 0) + us);
          }
        }
      }
    }
  }
  const ms = (us: number) => (us / 1000).toFixed(0);
  const share = (us: number) => `${((100 * us) / Math.max(1, total)).toFixed(1)} %`;
  const lines = [
    `${files.length} profile(s), ${ms(total)} ms sampled`,
    '',
    '| self time by package | ms | share |',
    '|---|---:|---:|',
  ];
  for (const [name, us] of [...selfByModule].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`| ${name} | ${ms(us)} | ${share(us)} |`);
  lines.push('', '| top functions (self) | ms | share |', '|---|---:|---:|');
  for (const [name, us] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`| ${name.replace(/\|/g, '\\|')} | ${ms(us)} | ${share(us)} |`);
  if (focus.length) {
    lines.push('', '| function (inclusive, synchronous stacks) | ms | share |', '|---|---:|---:|');
    for (const name of focus)
      lines.push(`| ${name} | ${ms(inclusive.get(name) ?? 0)} | ${share(inclusive.get(name) ?? 0)} |`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args.splice(index, 2)[1] : undefined;
  };
  const top = Number(option('top') ?? 25);
  const focus = (option('focus') ?? '').split(',').filter(Boolean);
  process.stdout.write(`${summarise(args, top, focus)}\n`);
}
