import { parser } from '@prometheus-io/lezer-promql';

/** Grafana's built-in interval variables, replaced by concrete durations before parsing. */
const GRAFANA_VARIABLES: Record<string, string> = {
  __rate_interval: '5m',
  __interval: '1m',
  __range: '1h',
};

/** Replaces Grafana variables (`$__rate_interval`, `${var}`) so the expression is plain PromQL. */
export function expandGrafanaVariables(expr: string, values: Record<string, string> = {}): string {
  return expr.replace(
    /\$\{(\w+)(?::\w+)?\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      return values[name] ?? GRAFANA_VARIABLES[name] ?? whole;
    },
  );
}

export interface LabelMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

/** One vector selector of an expression: its metric name and label matchers (`__name__` excluded). */
export interface PromqlSelector {
  metric: string;
  matchers: LabelMatcher[];
}

export interface ParsedPromql {
  /** Syntax errors (positions of the parser's error nodes). */
  errors: string[];
  /** Metric names the expression selects (`foo{…}`, `foo[5m]`, `{__name__="foo"}`). */
  metrics: string[];
  /** Every vector selector, in order. */
  selectors: PromqlSelector[];
}

const MATCHER = /([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;

/** Whether a label value satisfies a matcher (regular expressions are anchored, as in Prometheus). */
export function matchesLabel(matcher: LabelMatcher, value: string | undefined): boolean {
  const actual = value ?? '';
  switch (matcher.op) {
    case '=':
      return actual === matcher.value;
    case '!=':
      return actual !== matcher.value;
    case '=~':
      return new RegExp(`^(?:${matcher.value})$`).test(actual);
    case '!~':
      return !new RegExp(`^(?:${matcher.value})$`).test(actual);
  }
}

/** Parses PromQL with the official Lezer grammar and lists the metric names it selects. */
export function parsePromql(expr: string): ParsedPromql {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const metrics = new Set<string>();
  const selectors: PromqlSelector[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.type.isError)
        errors.push(
          `syntax error at ${node.from}: "${expr.slice(Math.max(0, node.from - 10), node.to + 10)}"`,
        );
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        const text = expr.slice(node.from, node.to);
        let metric = identifier ? expr.slice(identifier.from, identifier.to) : '';
        const matchers: LabelMatcher[] = [];
        for (const [, label, op, quoted] of text
          .slice(identifier ? identifier.to - node.from : 0)
          .matchAll(MATCHER)) {
          // PromQL string escapes: `\\.` in the query is the regular expression `\.`.
          const value = quoted.replace(/\\(.)/g, '$1');
          if (label === '__name__' && op === '=') metric = value;
          else matchers.push({ label, op: op as LabelMatcher['op'], value });
        }
        if (metric) {
          metrics.add(metric);
          selectors.push({ metric, matchers });
        }
      }
    },
  });
  return { errors, metrics: [...metrics], selectors };
}

/**
 * Metric families an exposition (the text of /metrics) declares: `# TYPE` lines, with the series
 * names they expose (histograms: `_bucket`, `_sum`, `_count`; summaries: `_sum`, `_count`).
 */
export function exposedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match;
    names.add(name);
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}
