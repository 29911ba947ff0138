#!/usr/bin/env bash
# A real Apache Kafka (KRaft, from Maven Central) on loopback, for tests and the local cluster.
#   up [single|cluster]   single: one broker on 127.0.0.1:${KAFKA_PORT:-9092}
#                         cluster: three brokers+controllers on 127.0.0.1:19092,19192,19292 (controllers
#                         19093,19193,19293: every port below Linux's ephemeral range, 32768-60999,
#                         so that no client connection's local port can hold one when a broker binds)
#   down [single|cluster] graceful stop (SIGTERM to every broker, SIGKILL to any still up after 30 s)
#   kill N | start N      cluster only: kill -9 / restart broker N (fault tests)
#   brokers [mode]        prints the bootstrap list
# Reuses a broker that already listens; data lives in .cache/kafka/.
source "$(dirname "$0")/common.sh"
KAFKA_DIR="$CACHE_DIR/kafka"
LIBS="$REPO_ROOT/infra/kafka/target/kafka-libs"
LOG4J="-Dlog4j.configuration=file:$REPO_ROOT/infra/kafka/log4j.properties"
SINGLE_PORT="${KAFKA_PORT:-9092}"

ensure_java_libs() {
  command -v java >/dev/null || apt_ensure openjdk-17-jre-headless
  if [ ! -f "$LIBS/.complete" ]; then
    command -v mvn >/dev/null || apt_ensure maven
    log "fetching Kafka jars from Maven Central"
    mvn -q -B -f "$REPO_ROOT/infra/kafka/pom.xml" package >&2
    touch "$LIBS/.complete"
  fi
}

node_ports() { # mode index -> "broker controller"
  if [ "$1" = single ]; then echo "$SINGLE_PORT $((SINGLE_PORT + 1))"; else echo "19$(($2 - 1))92 19$(($2 - 1))93"; fi
}

write_config() { # mode index
  local mode=$1 i=$2 dir="$KAFKA_DIR/$1/node$2" ports broker controller voters
  read -r broker controller <<<"$(node_ports "$mode" "$i")"
  if [ "$mode" = single ]; then voters="1@127.0.0.1:$controller"; else voters="1@127.0.0.1:19093,2@127.0.0.1:19193,3@127.0.0.1:19293"; fi
  mkdir -p "$dir"
  {
    echo "process.roles=broker,controller"
    echo "node.id=$i"
    echo "controller.quorum.voters=$voters"
    echo "listeners=PLAINTEXT://127.0.0.1:$broker,CONTROLLER://127.0.0.1:$controller"
    echo "advertised.listeners=PLAINTEXT://127.0.0.1:$broker"
    echo "controller.listener.names=CONTROLLER"
    echo "inter.broker.listener.name=PLAINTEXT"
    echo "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
    echo "log.dirs=$dir/data"
    echo "auto.create.topics.enable=false"
    echo "group.initial.rebalance.delay.ms=0"
    echo "log.retention.hours=24"
    if [ "$mode" = single ]; then
      echo "num.partitions=1"
      echo "offsets.topic.replication.factor=1"
      echo "offsets.topic.num.partitions=4"
      echo "transaction.state.log.replication.factor=1"
      echo "transaction.state.log.min.isr=1"
    else
      echo "num.partitions=3"
      echo "default.replication.factor=3"
      echo "min.insync.replicas=2"
      echo "offsets.topic.replication.factor=3"
      echo "offsets.topic.num.partitions=6"
      echo "transaction.state.log.replication.factor=3"
      echo "transaction.state.log.min.isr=2"
      echo "unclean.leader.election.enable=false"
      echo "broker.heartbeat.interval.ms=500"
      echo "broker.session.timeout.ms=3000"
    fi
  } >"$dir/server.properties"
}

start_node() { # mode index
  local mode=$1 i=$2 dir="$KAFKA_DIR/$1/node$2" broker controller
  read -r broker controller <<<"$(node_ports "$mode" "$i")"
  if port_open 127.0.0.1 "$broker"; then log "broker $i already listening on $broker"; return 0; fi
  # The configuration is rewritten on every start. When it changed (other ports, say), the node's
  # data is test data made under the old settings: it is formatted afresh rather than reused.
  [ -f "$dir/server.properties" ] && cp "$dir/server.properties" "$dir/server.properties.old"
  write_config "$mode" "$i"
  if [ -f "$dir/server.properties.old" ] && ! cmp -s "$dir/server.properties" "$dir/server.properties.old"; then
    log "broker $i ($mode): configuration changed, formatting its data afresh"
    rm -rf "$dir/data"
  fi
  rm -f "$dir/server.properties.old"
  if [ ! -f "$dir/data/meta.properties" ]; then
    local cid
    cid=$(cat "$KAFKA_DIR/$mode/cluster-id" 2>/dev/null || true)
    # A base64url id that starts with '-' reads as an option to StorageTool ("argument --cluster-id:
    # expected one argument"), one id in 64: Kafka's own ids never start with it, nor do these.
    while [ -z "$cid" ] || [ "${cid#-}" != "$cid" ]; do
      cid=$(head -c16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
    done
    echo "$cid" >"$KAFKA_DIR/$mode/cluster-id"
    java $LOG4J -cp "$LIBS/*" kafka.tools.StorageTool format -t "$cid" -c "$dir/server.properties" >&2
  fi
  local heap="${KAFKA_HEAP:-512m}"
  [ "$mode" = cluster ] && heap="${KAFKA_HEAP:-384m}"
  log "starting Kafka broker $i ($mode) on 127.0.0.1:$broker"
  nohup java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true $LOG4J \
    -cp "$LIBS/*" kafka.Kafka "$dir/server.properties" >"$dir/broker.log" 2>&1 &
  echo $! >"$dir/pid"
}

# Waits for a broker's listener; fails at once, with the end of its log, when its process has exited.
wait_for_broker() { # mode index
  local dir="$KAFKA_DIR/$1/node$2" broker _c
  read -r broker _c <<<"$(node_ports "$1" "$2")"
  wait_for_port 127.0.0.1 "$broker" 120 "Kafka broker $2 ($1)" "$(cat "$dir/pid" 2>/dev/null)" "$dir/broker.log"
}

stop_node() { # mode index signal
  stop_nodes "$1" "$3" "$2"
}

# Signals the given brokers of a mode at once, waits up to 30 s for them to exit, then kills what is
# left. The last broker of a three-node KRaft quorum cannot finish a controlled shutdown once the
# other two are gone and would otherwise outlive `down` (seen after the broker-restart fault test).
stop_nodes() { # mode signal index...
  local mode=$1 signal=$2 pids=() i pid
  shift 2
  for i in "$@"; do
    local pidfile="$KAFKA_DIR/$mode/node$i/pid"
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "-$signal" "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
    rm -f "$pidfile"
  done
  for _ in $(seq 1 60); do
    local alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    pids=("${alive[@]}")
    [ "${#pids[@]}" -eq 0 ] && return 0
    sleep 0.5
  done
  log "Kafka broker process(es) ${pids[*]} still up 30 s after SIG$signal: killing them"
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

indices() { if [ "$1" = single ]; then echo 1; else echo 1 2 3; fi; }
brokers() {
  local list=() i broker controller
  for i in $(indices "$1"); do read -r broker controller <<<"$(node_ports "$1" "$i")"; list+=("127.0.0.1:$broker"); done
  (IFS=,; echo "${list[*]}")
}

cmd=${1:-up}; mode=${2:-single}
case "$cmd" in
  up)
    ensure_java_libs
    mkdir -p "$KAFKA_DIR/$mode"
    for i in $(indices "$mode"); do start_node "$mode" "$i"; done
    for i in $(indices "$mode"); do wait_for_broker "$mode" "$i"; done
    brokers "$mode"
    ;;
  down) stop_nodes "$mode" TERM $(indices "$mode") ;;
  kill) stop_node cluster "$2" KILL ;;
  start) ensure_java_libs; start_node cluster "$2"; wait_for_broker cluster "$2" ;;
  brokers) brokers "$mode" ;;
  reset) stop_nodes "$mode" TERM $(indices "$mode"); rm -rf "${KAFKA_DIR:?}/$mode" ;;
  *) die "usage: $0 up|down|reset|brokers [single|cluster] | kill N | start N" ;;
esac
