#!/usr/bin/env bash
# Project-local operations tools in .tools/ (idempotent; reused when present):
#   helm                  Helm 3 built from the Go module proxy (kube version pinned through ldflags)
#   kubernetes-validate   PyPI package (schemas for Kubernetes 1.25–1.37 inside the wheel) in .tools/venv
#   promtool              Debian package `prometheus`
#   schemathesis          PyPI package (API fuzzer; `st`) in .tools/venv, for apps/platform-e2e/src/api-fuzz.e2e-spec.ts
# Usage: scripts/ops/tools.sh [helm|kubernetes-validate|promtool|schemathesis|all]   prints nothing but errors and progress on stderr.
source "$(dirname "$0")/../infra/common.sh"
TOOLS_DIR="$REPO_ROOT/.tools"
HELM_VERSION="${HELM_VERSION:-v3.21.4}"
KUBE_MINOR="${KUBE_MINOR:-34}"
KUBERNETES_VALIDATE_VERSION="${KUBERNETES_VALIDATE_VERSION:-1.37.0}"
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
mkdir -p "$TOOLS_DIR/bin"

ensure_helm() {
  local helm="$TOOLS_DIR/bin/helm"
  local version=""
  [ -x "$helm" ] && version=$("$helm" version --short 2>/dev/null || true)
  if [[ "$version" == "${HELM_VERSION%.*}"* ]]; then return 0; fi
  # Another worktree may already have built the same version.
  for other in "${HELM_BINARY:-}" "$(command -v helm || true)"; do
    if [ -n "$other" ] && [ -x "$other" ] && [[ "$("$other" version --short 2>/dev/null || true)" == "${HELM_VERSION%.*}"* ]]; then
      cp "$other" "$helm"; return 0
    fi
  done
  # Go >= 1.21 fetches the toolchain helm's go.mod asks for (GOTOOLCHAIN=auto); Debian's golang-go is older.
  command -v go >/dev/null || die "helm is built with Go (>= 1.21, https://go.dev/dl); install Go or put a helm ${HELM_VERSION%.*} binary on PATH"
  log "building helm $HELM_VERSION with go install (several minutes on 2 cores)"
  local flags="-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$KUBE_MINOR"
  flags="$flags -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$KUBE_MINOR"
  flags="$flags -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  GOBIN="$TOOLS_DIR/bin" nice go install -ldflags "$flags" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
}

# A PyPI package at a pinned version in .tools/venv (created when missing): ensure_pip_tool <package> <version> <command>
ensure_pip_tool() {
  local package="$1" version="$2" command="$3"
  local venv="$TOOLS_DIR/venv"
  local installed=""
  [ -x "$venv/bin/$command" ] && installed=$("$venv/bin/pip" show "$package" 2>/dev/null || true)
  if grep -qx "Version: $version" <<<"$installed"; then return 0; fi
  [ -x "$venv/bin/python" ] || { python3 -m venv "$venv" 2>/dev/null || { apt_ensure python3-venv; python3 -m venv "$venv"; }; }
  log "installing $package $version into $venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$package==$version" >&2
}

ensure_kubernetes_validate() { ensure_pip_tool kubernetes-validate "$KUBERNETES_VALIDATE_VERSION" kubernetes-validate; }

ensure_schemathesis() { ensure_pip_tool schemathesis "$SCHEMATHESIS_VERSION" st; }

ensure_promtool() {
  command -v promtool >/dev/null || apt_ensure prometheus
}

case "${1:-all}" in
  helm) ensure_helm ;;
  kubernetes-validate) ensure_kubernetes_validate ;;
  promtool) ensure_promtool ;;
  schemathesis) ensure_schemathesis ;;
  all) ensure_helm; ensure_kubernetes_validate; ensure_promtool; ensure_schemathesis ;;
  *) die "usage: $0 [helm|kubernetes-validate|promtool|schemathesis|all]" ;;
esac
