# Shared helpers for the infrastructure scripts (sourced, not executed).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE_DIR="${QUARRY_CACHE_DIR:-$REPO_ROOT/.cache}"
mkdir -p "$CACHE_DIR"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] error: %s\n' "$*" >&2; exit 1; }

# port_open HOST PORT -> 0 when something accepts TCP connections there.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && exec 3>&- 3<&-; }

# wait_for_port HOST PORT SECONDS NAME [PID LOGFILE]
# With PID, stops waiting as soon as that process has exited; with LOGFILE, the failure message ends
# with the last 40 lines of that log, so that a CI transcript says why.
wait_for_port() {
  local host=$1 port=$2 deadline=$((SECONDS + $3)) name=$4 pid=${5:-} logfile=${6:-} why
  until port_open "$host" "$port"; do
    why=""
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      why="exited before it opened $host:$port"
    elif [ "$SECONDS" -ge "$deadline" ]; then
      why="did not open $host:$port within $3 s"
    fi
    if [ -n "$why" ]; then
      [ -n "$logfile" ] && [ -f "$logfile" ] && { echo "--- last lines of $logfile:"; tail -n 40 "$logfile"; echo "---"; } >&2
      die "$name $why"
    fi
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
