/**
 * Writes the Grafana dashboards the chart ships, from deploy/grafana/dashboards.ts.
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register deploy/grafana/generate.ts [--check]
 * `--check` writes nothing and exits 1 when a committed dashboard differs from its source.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildDashboard } from './builder';
import { DASHBOARDS } from './dashboards';

export const DASHBOARD_DIR = join(__dirname, '../helm/quarry/files/dashboards');

export function renderDashboards(): Map<string, string> {
  return new Map(
    DASHBOARDS.map((spec) => [`${spec.uid}.json`, `${JSON.stringify(buildDashboard(spec), null, 2)}\n`]),
  );
}

/** Files that differ from their source (or exist without one). */
export function staleDashboards(): string[] {
  const rendered = renderDashboards();
  const present = existsSync(DASHBOARD_DIR)
    ? readdirSync(DASHBOARD_DIR).filter((file) => file.endsWith('.json'))
    : [];
  const stale = [...rendered]
    .filter(
      ([file, text]) => !present.includes(file) || readFileSync(join(DASHBOARD_DIR, file), 'utf8') !== text,
    )
    .map(([file]) => file);
  return [...stale, ...present.filter((file) => !rendered.has(file))];
}

if (require.main === module) {
  const stale = staleDashboards();
  if (process.argv.includes('--check')) {
    if (stale.length) {
      process.stderr.write(
        `dashboards out of date (run: npx nx run deploy:dashboards): ${stale.join(', ')}\n`,
      );
      process.exit(1);
    }
  } else {
    mkdirSync(DASHBOARD_DIR, { recursive: true });
    const rendered = renderDashboards();
    for (const file of stale) {
      if (rendered.has(file)) writeFileSync(join(DASHBOARD_DIR, file), rendered.get(file) as string);
      else unlinkSync(join(DASHBOARD_DIR, file));
    }
  }
  process.stdout.write(
    stale.length
      ? `dashboards ${process.argv.includes('--check') ? 'stale' : 'written'}: ${stale.join(', ')}\n`
      : 'dashboards up to date\n',
  );
}
