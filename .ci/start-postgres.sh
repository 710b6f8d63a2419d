#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on 127.0.0.1:${PGPORT:-5433} for the database test suites and
# prints the admin URL. Uses the Debian postgresql package's binaries.
set -euo pipefail
port="${PGPORT:-5433}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
if [ -z "$bin" ]; then echo "postgresql is not installed" >&2; exit 1; fi
dir="${PGDATA_DIR:-/tmp/hikari-pg}"
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ -f "$dir/postmaster.pid" ]; then run "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 || true; fi
rm -rf "$dir"
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
run "$bin/initdb" -D "$dir" -U postgres --auth=trust --locale=C.UTF-8 --encoding=UTF8 >/dev/null
run "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
  -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres"
