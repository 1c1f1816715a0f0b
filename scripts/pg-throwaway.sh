#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1:<port> (default 5433) and prints its URL on stdout.
#   scripts/pg-throwaway.sh start [port]   → postgres://app:pw@127.0.0.1:<port>/app
#   scripts/pg-throwaway.sh stop [port]
# Installs the server with apt-get when missing. Needs root (it runs the server as the postgres user).
set -euo pipefail
cmd=${1:-start}
port=${2:-5433}
dir=/tmp/pg-throwaway-$port

pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

case "$cmd" in
  start)
    if [ -z "$(pgbin)" ] || [ ! -x "$(pgbin)/initdb" ]; then
      echo "installing postgresql with apt-get" >&2
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
    fi
    bin=$(pgbin)
    if [ -f "$dir/data/postmaster.pid" ]; then
      su postgres -s /bin/sh -c "$bin/pg_ctl -D $dir/data -m immediate stop" >&2 || true
    fi
    rm -rf "$dir"; mkdir -p "$dir"
    printf 'pw\n' > "$dir/pw"; chown -R postgres:postgres "$dir"
    su postgres -s /bin/sh -c "$bin/initdb -D $dir/data -U app --pwfile=$dir/pw -A scram-sha-256 --no-sync" >/dev/null
    su postgres -s /bin/sh -c "$bin/pg_ctl -D $dir/data -l $dir/log -w -o '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300' start" >/dev/null
    PGPASSWORD=pw "$bin/createdb" -h 127.0.0.1 -p "$port" -U app app
    echo "postgres://app:pw@127.0.0.1:$port/app"
    ;;
  stop)
    bin=$(pgbin)
    [ -d "$dir/data" ] && su postgres -s /bin/sh -c "$bin/pg_ctl -D $dir/data -m fast stop" >/dev/null || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop [port]" >&2; exit 2 ;;
esac
