#!/usr/bin/env bash
# The third-party Firecrawl clients the client suites drive (apps/platform-e2e/src/clients), pinned and
# installed from their registries into .tools/clients (idempotent; a current install is reused):
#   python/  venv with firecrawl-py (PyPI): its v2 client, `.v1` client and AsyncFirecrawl
#   npm/     firecrawl-mcp (MCP server over stdio) and firecrawl-cli (`firecrawl` command) from npm
# Python is here because it is a client under test, never part of the product.
# Usage: scripts/infra/clients.sh [python|npm|all]   prints the clients directory on stdout.
source "$(dirname "$0")/common.sh"
FIRECRAWL_PY_VERSION="${FIRECRAWL_PY_VERSION:-4.55.0}"
FIRECRAWL_MCP_VERSION="${FIRECRAWL_MCP_VERSION:-3.26.0}"
FIRECRAWL_CLI_VERSION="${FIRECRAWL_CLI_VERSION:-1.23.3}"
CLIENTS_DIR="${QUARRY_CLIENTS_DIR:-$REPO_ROOT/.tools/clients}"
mkdir -p "$CLIENTS_DIR"

ensure_python() {
  local venv="$CLIENTS_DIR/python"
  if [ -x "$venv/bin/python" ] && "$venv/bin/pip" show firecrawl-py 2>/dev/null | grep -qx "Version: $FIRECRAWL_PY_VERSION"; then
    return 0
  fi
  command -v python3 >/dev/null || apt_ensure python3
  [ -x "$venv/bin/python" ] || { python3 -m venv "$venv" 2>/dev/null || { apt_ensure python3-venv; python3 -m venv "$venv"; }; }
  log "installing firecrawl-py $FIRECRAWL_PY_VERSION into $venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "firecrawl-py==$FIRECRAWL_PY_VERSION" >&2
}

ensure_npm() {
  local dir="$CLIENTS_DIR/npm"
  local want="firecrawl-mcp@$FIRECRAWL_MCP_VERSION firecrawl-cli@$FIRECRAWL_CLI_VERSION"
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ]; then return 0; fi
  mkdir -p "$dir"
  # A package of its own, so the clients' dependencies (their own copies of the Firecrawl JS SDK) stay
  # out of the project's node_modules and lock file.
  [ -f "$dir/package.json" ] || printf '{ "private": true, "description": "Firecrawl clients under test" }\n' >"$dir/package.json"
  log "installing $want into $dir"
  # --ignore-scripts: nothing these clients run needs an install script (tldjs only refreshes its suffix list).
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --save-exact \
    "firecrawl-mcp@$FIRECRAWL_MCP_VERSION" "firecrawl-cli@$FIRECRAWL_CLI_VERSION" >&2)
  printf '%s' "$want" >"$dir/.installed"
}

case "${1:-all}" in
  python) ensure_python ;;
  npm) ensure_npm ;;
  all) ensure_python; ensure_npm ;;
  *) die "usage: $0 [python|npm|all]" ;;
esac
echo "$CLIENTS_DIR"
