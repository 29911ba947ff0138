import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { METRIC_JOB_KINDS } from '@quarry/contracts';
import { expandGrafanaVariables, matchesLabel, parsePromql } from '@quarry/testing';

import { dashboardQueries } from '../grafana/builder';
import { DASHBOARDS } from '../grafana/dashboards';
import { DASHBOARD_DIR, staleDashboards } from '../grafana/generate';
import { CHART } from './support/helm';

/**
 * Dashboards are generated from deploy/grafana/dashboards.ts (one source per query) and checked
 * offline here: the committed JSON is current, the structure is sound, every query parses. The
 * e2e tier (observability.e2e-spec) checks each metric against running services, and
 * `make chart-check` runs the queries through promtool.
 */
const files = readdirSync(DASHBOARD_DIR).filter((file) => file.endsWith('.json'));
const dashboards = files.map((file) => ({
  file,
  json: JSON.parse(readFileSync(join(DASHBOARD_DIR, file), 'utf8')),
}));

describe('dashboards', () => {
  it('are the generated output of their source (npx nx run deploy:dashboards)', () => {
    expect(staleDashboards()).toEqual([]);
  });

  it('are the five the platform needs: overview, gateway, workers, crawl, agent', () => {
    expect(DASHBOARDS.map((spec) => spec.uid).sort()).toEqual([
      'quarry-agent',
      'quarry-crawl',
      'quarry-gateway',
      'quarry-overview',
      'quarry-workers',
    ]);
    expect(files.sort()).toEqual(DASHBOARDS.map((spec) => `${spec.uid}.json`).sort());
  });

  it.each(files)(
    '%s: unique panel ids, panels inside the grid, a description and a Prometheus datasource variable',
    (file) => {
      const { json } = dashboards.find((dashboard) => dashboard.file === file) as {
        json: Record<string, never>;
      };
      const panels = json['panels'] as {
        id: number;
        type: string;
        description?: string;
        gridPos: { x: number; w: number };
        datasource?: { uid: string };
      }[];
      expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
      for (const panel of panels) {
        expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
        if (panel.type === 'row') continue;
        expect(panel.description?.length).toBeGreaterThan(10);
        expect(panel.datasource?.uid).toBe('${datasource}');
      }
      const variables = (json['templating'] as { list: { name: string; type: string; query: string }[] })
        .list;
      expect(variables).toContainEqual(
        expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
      );
    },
  );

  it.each(files)('%s: every query parses and selects only quarry_ metrics', (file) => {
    const { json } = dashboards.find((dashboard) => dashboard.file === file) as {
      json: Record<string, never>;
    };
    const queries = dashboardQueries(json);
    expect(queries.length).toBeGreaterThan(3);
    for (const { panel, expr } of queries) {
      const parsed = parsePromql(expandGrafanaVariables(expr));
      expect({ panel, errors: parsed.errors }).toEqual({ panel, errors: [] });
      expect(parsed.metrics.length).toBeGreaterThan(0);
      for (const metric of parsed.metrics) expect(metric).toMatch(/^quarry_[a-z0-9_]+$/);
    }
  });

  it.each(files)(
    '%s: selects job kinds only among the contracts’ METRIC_JOB_KINDS (what the metrics accept)',
    (file) => {
      const { json } = dashboards.find((dashboard) => dashboard.file === file) as {
        json: Record<string, never>;
      };
      for (const { panel, expr } of dashboardQueries(json)) {
        for (const selector of parsePromql(expandGrafanaVariables(expr)).selectors) {
          for (const matcher of selector.matchers.filter((candidate) => candidate.label === 'kind')) {
            const values = matcher.value === '.+' ? [] : matcher.value.split('|');
            expect({
              panel,
              unknown: values.filter((value) => !(METRIC_JOB_KINDS as readonly string[]).includes(value)),
            }).toEqual({ panel, unknown: [] });
            // and each selects at least one kind the code emits
            expect({ panel, selects: METRIC_JOB_KINDS.some((kind) => matchesLabel(matcher, kind)) }).toEqual({
              panel,
              selects: true,
            });
          }
        }
      }
    },
  );

  it('the PromQL parser reports broken expressions (so the check above can fail)', () => {
    expect(parsePromql('sum(rate(quarry_http_requests_total[5m])').errors.length).toBeGreaterThan(0);
    expect(parsePromql('quarry_a + ').errors.length).toBeGreaterThan(0);
    expect(
      parsePromql('histogram_quantile(0.9, sum by (le) (rate(quarry_x_bucket{a="b"}[5m])))').metrics,
    ).toEqual(['quarry_x_bucket']);
    expect(
      parsePromql('max(quarry_lag{service="gateway",topic=~".*job\\\\.events"}) / sum(quarry_y)').selectors,
    ).toEqual([
      {
        metric: 'quarry_lag',
        matchers: [
          { label: 'service', op: '=', value: 'gateway' },
          { label: 'topic', op: '=~', value: '.*job\\.events' },
        ],
      },
      { metric: 'quarry_y', matchers: [] },
    ]);
    const topic = { label: 'topic', op: '=~', value: '.*job\\.events' } as const;
    expect([
      matchesLabel(topic, 'e2e.job.events'),
      matchesLabel(topic, 'e2e.jobxevents'),
      matchesLabel(topic, 'job.events.dead-letter'),
    ]).toEqual([true, false, false]);
  });
});

describe('alert rules', () => {
  const rules = parse(readFileSync(join(CHART, 'files/rules/quarry-alerts.yaml'), 'utf8')) as {
    groups: {
      name: string;
      rules: {
        alert: string;
        expr: string;
        labels: { severity: string };
        annotations: { summary: string; description: string };
      }[];
    }[];
  };

  it('have a severity, a summary and a description, and select only quarry_ metrics', () => {
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(new Set(all.map((rule) => rule.alert)).size).toBe(all.length);
    for (const rule of all) {
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toBeTruthy();
      const parsed = parsePromql(rule.expr);
      expect({ alert: rule.alert, errors: parsed.errors }).toEqual({ alert: rule.alert, errors: [] });
      for (const metric of parsed.metrics) expect(metric).toMatch(/^quarry_/);
    }
  });
});
