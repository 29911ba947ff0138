#!/usr/bin/env bash
# PostgreSQL for tests and cluster mode: Debian's postgresql-15 cluster on 127.0.0.1:5432.
#   up     install if needed, start, ensure role/database `quarry` (password `quarry`); prints DATABASE_URL
#   down   stop the cluster
#   status exit 0 when it accepts connections
# PG_CLUSTER=<name> PGPORT=<port> selects another Debian cluster (created on first `up`): the fault
# tests stop and start their own (`quarry-faults` on 25432), never the shared one. Ports stay below
# Linux's ephemeral range (32768-60999), where a client connection's local port could hold them.
source "$(dirname "$0")/common.sh"
PGPORT="${PGPORT:-5432}"
PG_VERSION="${PG_VERSION:-15}"
PG_CLUSTER="${PG_CLUSTER:-main}"
URL="postgresql://quarry:quarry@127.0.0.1:${PGPORT}/quarry"

psql_admin() { as_root su postgres -c "psql -p $PGPORT -v ON_ERROR_STOP=1 -qtAX $(printf '%q ' "$@")"; }

case "${1:-up}" in
  up)
    command -v pg_ctlcluster >/dev/null || apt_ensure "postgresql-$PG_VERSION" postgresql-contrib
    if ! port_open 127.0.0.1 "$PGPORT"; then
      existing=$(pg_lsclusters -h | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1 == v && $2 == c { print $3 }')
      if [ -z "$existing" ]; then
        as_root pg_createcluster -p "$PGPORT" "$PG_VERSION" "$PG_CLUSTER" >&2
      elif [ "$existing" != "$PGPORT" ]; then # made on another port by an earlier version of this script
        log "moving PostgreSQL cluster $PG_CLUSTER from port $existing to $PGPORT"
        as_root pg_conftool "$PG_VERSION" "$PG_CLUSTER" set port "$PGPORT"
      fi
      log "starting PostgreSQL $PG_VERSION ($PG_CLUSTER on $PGPORT)"
      as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" start >&2 || as_root pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start >&2
      wait_for_port 127.0.0.1 "$PGPORT" 30 PostgreSQL
    fi
    psql_admin -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'quarry') THEN CREATE ROLE quarry LOGIN PASSWORD 'quarry' CREATEDB; END IF; END \$\$;"
    psql_admin -lqt | cut -d'|' -f1 | grep -qw quarry || psql_admin -c "CREATE DATABASE quarry OWNER quarry"
    echo "$URL"
    ;;
  down)
    as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" stop -m fast >&2 || true
    ;;
  status)
    port_open 127.0.0.1 "$PGPORT"
    ;;
  *) die "usage: $0 up|down|status" ;;
esac
