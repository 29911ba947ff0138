# Shared helpers for the infrastructure scripts (sourced, not executed).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE_DIR="${QUARRY_CACHE_DIR:-$REPO_ROOT/.cache}"
mkdir -p "$CACHE_DIR"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] error: %s\n' "$*" >&2; exit 1; }

# port_open HOST PORT -> 0 when something accepts TCP connections there.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && exec 3>&- 3<&-; }

# wait_for_port HOST PORT SECONDS NAME
wait_for_port() {
  local host=$1 port=$2 deadline=$((SECONDS + $3)) name=$4
  until port_open "$host" "$port"; do
    [ "$SECONDS" -lt "$deadline" ] || die "$name did not open $host:$port within $3 s"
    sleep 0.5
  done
}

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# apt_ensure PKG... : installs the Debian packages that are missing (one apt-get update at most).
apt_ensure() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  if [ ! -f "$CACHE_DIR/.apt-updated" ] || [ -n "$(find "$CACHE_DIR/.apt-updated" -mmin +720 2>/dev/null)" ]; then
    as_root apt-get update -qq && touch "$CACHE_DIR/.apt-updated"
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
