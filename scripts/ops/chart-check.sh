#!/usr/bin/env bash
# `make chart-check`: the Helm chart, dashboards and alert rules, checked without a cluster.
#   1. generated files are current (values/schema/README env wiring, dashboards)
#   2. helm lint --strict with the default and the production values
#   3. helm template of both, every manifest validated against the Kubernetes schemas
#      (kubernetes-validate --strict, for the oldest and newest Kubernetes the chart targets)
#   4. promtool check rules + promtool test rules (alert unit tests)
#   5. assertions on the rendered output (deploy/tests/*.chart-spec.ts)
source "$(dirname "$0")/../infra/common.sh"
cd "$REPO_ROOT"
"$REPO_ROOT/scripts/ops/tools.sh" all
export PATH="$REPO_ROOT/.tools/bin:$REPO_ROOT/.tools/venv/bin:$PATH"
CHART=deploy/helm/quarry
OUT="$CACHE_DIR/chart"
KUBE_VERSIONS="${KUBE_VERSIONS:-1.29.0 1.34.0}"
mkdir -p "$OUT"
export SWC_NODE_PROJECT="$REPO_ROOT/tsconfig.base.json"

log "generated files are current"
node -r @swc-node/register deploy/helm/generate.ts --check
node -r @swc-node/register deploy/grafana/generate.ts --check

for values in default production; do
  args=()
  [ "$values" = production ] && args=(-f "$CHART/values-production.yaml")
  for kube in $KUBE_VERSIONS; do
    log "helm lint + template ($values values, Kubernetes $kube)"
    helm lint --strict --kube-version "$kube" "$CHART" "${args[@]}" >/dev/null
    helm template quarry "$CHART" --namespace quarry --kube-version "$kube" "${args[@]}" >"$OUT/$values-$kube.yaml"
    kubernetes-validate --quiet --strict -k "$kube" "$OUT/$values-$kube.yaml"
  done
done

log "alert rules"
promtool check rules "$CHART/files/rules/quarry-alerts.yaml" >/dev/null
promtool test rules deploy/prometheus/alerts.test.yaml >/dev/null

log "assertions on the rendered chart"
npx jest -c deploy/jest.chart.config.cjs --runInBand
