/**
 * A small builder for Grafana dashboard JSON (schema 39): rows of panels laid out left to right on
 * the 24-column grid, every query against the `${datasource}` Prometheus variable. Each query is
 * written once, in deploy/grafana/dashboard-*.ts (listed by dashboards.ts).
 */
export interface Query {
  expr: string;
  legend?: string;
}

export interface PanelSpec {
  title: string;
  description: string;
  queries: Query[];
  type?: 'timeseries' | 'stat' | 'bargauge';
  unit?: string;
  /** Grid width (of 24). */
  width?: number;
  stack?: boolean;
  min?: number;
  max?: number;
  /** Value at which a stat turns red (and one at which it turns orange). */
  thresholds?: { warn?: number; bad: number };
}

export interface RowSpec {
  title: string;
  panels: PanelSpec[];
}

export interface DashboardSpec {
  uid: string;
  title: string;
  description: string;
  tags: string[];
  rows: RowSpec[];
  links?: { title: string; uid: string }[];
}

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
const PANEL_HEIGHT = 8;

function panelJson(spec: PanelSpec, id: number, gridPos: { x: number; y: number; w: number; h: number }) {
  const type = spec.type ?? 'timeseries';
  const steps = [{ color: 'green', value: null as number | null }];
  if (spec.thresholds?.warn !== undefined) steps.push({ color: 'orange', value: spec.thresholds.warn });
  if (spec.thresholds) steps.push({ color: 'red', value: spec.thresholds.bad });
  return {
    id,
    type,
    title: spec.title,
    description: spec.description,
    datasource: DATASOURCE,
    gridPos,
    targets: spec.queries.map((query, index) => ({
      refId: String.fromCharCode(65 + index),
      datasource: DATASOURCE,
      expr: query.expr,
      legendFormat: query.legend ?? '__auto',
      range: true,
      instant: false,
    })),
    fieldConfig: {
      defaults: {
        unit: spec.unit ?? 'short',
        ...(spec.min !== undefined ? { min: spec.min } : {}),
        ...(spec.max !== undefined ? { max: spec.max } : {}),
        thresholds: { mode: 'absolute', steps },
        color: { mode: type === 'timeseries' ? 'palette-classic' : 'thresholds' },
        ...(type === 'timeseries'
          ? {
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: spec.stack ? 30 : 10,
                showPoints: 'never',
                spanNulls: false,
                stacking: { mode: spec.stack ? 'normal' : 'none', group: 'A' },
              },
            }
          : {}),
      },
      overrides: [],
    },
    options:
      type === 'timeseries'
        ? {
            legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
            tooltip: { mode: 'multi', sort: 'desc' },
          }
        : {
            reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
            colorMode: 'value',
            graphMode: 'area',
            textMode: 'auto',
            orientation: 'auto',
          },
  };
}

export function buildDashboard(spec: DashboardSpec): Record<string, unknown> {
  const panels: unknown[] = [];
  let id = 1;
  let y = 0;
  for (const row of spec.rows) {
    panels.push({
      id: id++,
      type: 'row',
      title: row.title,
      collapsed: false,
      gridPos: { x: 0, y, w: 24, h: 1 },
      panels: [],
    });
    y += 1;
    let x = 0;
    for (const panel of row.panels) {
      const w = panel.width ?? (panel.type === 'stat' ? 6 : 12);
      if (x + w > 24) {
        x = 0;
        y += PANEL_HEIGHT;
      }
      panels.push(panelJson(panel, id++, { x, y, w, h: panel.type === 'stat' ? 4 : PANEL_HEIGHT }));
      x += w;
    }
    y += PANEL_HEIGHT;
  }
  return {
    uid: spec.uid,
    title: spec.title,
    description: spec.description,
    tags: spec.tags,
    editable: true,
    graphTooltip: 1,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    timepicker: {},
    timezone: 'browser',
    fiscalYearStartMonth: 0,
    liveNow: false,
    weekStart: '',
    annotations: { list: [] },
    links: (spec.links ?? []).map((link) => ({
      title: link.title,
      type: 'link',
      url: `/d/${link.uid}`,
      icon: 'dashboard',
      targetBlank: false,
      tags: [],
      asDropdown: false,
      includeVars: true,
      keepTime: true,
    })),
    templating: {
      list: [
        {
          name: 'datasource',
          label: 'Data source',
          type: 'datasource',
          query: 'prometheus',
          current: {},
          hide: 0,
          refresh: 1,
          regex: '',
          options: [],
          includeAll: false,
          multi: false,
        },
      ],
    },
    panels,
  };
}

/** Every query expression of a generated dashboard, with the panel it belongs to. */
export function dashboardQueries(dashboard: {
  panels?: { title?: string; targets?: { expr?: string }[] }[];
}): { panel: string; expr: string }[] {
  return (dashboard.panels ?? []).flatMap((panel) =>
    (panel.targets ?? [])
      .filter((target) => target.expr)
      .map((target) => ({ panel: panel.title ?? '', expr: target.expr as string })),
  );
}
