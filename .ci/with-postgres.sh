#!/usr/bin/env bash
# Runs a command with WALLBOARD_TEST_DATABASE_URL pointing at a throwaway PostgreSQL cluster on
# loopback (Debian's server, run as the postgres user when we are root: it refuses root).
# WALLBOARD_PG_FSYNC=on starts it with fsync on, PostgreSQL's default (every commit durable): the
# benches measure that; the tests keep fsync off (throwaway databases, nothing to keep).
set -euo pipefail

if [ -n "${WALLBOARD_TEST_DATABASE_URL:-}" ]; then exec "$@"; fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL tests skipped: no PostgreSQL server is installed (apt-get install postgresql)"
  exit 0
fi

as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

dir=$(mktemp -d /tmp/wallboard-pg.XXXXXX)
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_pg "$bin/initdb" -D "$dir/data" -U wallboard --auth=trust >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log"; exit 1; }
fsync=${WALLBOARD_PG_FSYNC:-off}
case "$fsync" in on | off) ;; *) echo "WALLBOARD_PG_FSYNC: on or off, not $fsync" >&2; exit 2 ;; esac
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=$fsync -c max_connections=200" start >/dev/null
trap 'as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1; rm -rf "$dir"' EXIT

export WALLBOARD_TEST_DATABASE_URL="postgres://wallboard@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, fsync $fsync"
"$@"
