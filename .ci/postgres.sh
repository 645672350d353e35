#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the test suite.
#   .ci/postgres.sh start DIR [PORT]  -> prints the connection URL on stdout
#   .ci/postgres.sh stop DIR
#   .ci/postgres.sh restart DIR PORT [PAUSE_SECONDS] [fast|immediate]
#     -> stops the server (immediate: no checkpoint, as a crash; the start recovers from the WAL),
#        stays down PAUSE_SECONDS (default 0), starts it again with the same settings
# Installs Debian's postgresql package first when no server binaries exist (needs root).
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?directory}; port=${3:-54329}
pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    if [ -z "$(pgbin)" ]; then
      echo "postgres.sh: installing postgresql (Debian)" >&2
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade postgresql) >&2
    fi
    bin=$(pgbin); [ -n "$bin" ] || { echo "postgres.sh: no PostgreSQL server binaries" >&2; exit 1; }
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
    as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=200" start >&2
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin=$(pgbin)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    ;;
  restart)
    bin=$(pgbin)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m "${5:-fast}" -w stop >&2
    sleep "${4:-0}"
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=200" start >&2
    ;;
  *) echo "usage: $0 start|stop|restart DIR [PORT] [PAUSE_SECONDS] [fast|immediate]" >&2; exit 2 ;;
esac
