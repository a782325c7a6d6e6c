#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests (.ci/run): Debian's package (installed if missing), a
# cluster made by initdb in DIR, listening on a free loopback port only, run as the "postgres"
# user when run as root (the server refuses root).
#   tools/ci/pg.sh start DIR   prints the URL (postgresql://hexfire@127.0.0.1:PORT/hexfire)
#   tools/ci/pg.sh stop DIR    stops it and removes DIR
set -euo pipefail
cmd="${1:?usage: pg.sh start|stop DIR}"
dir="${2:?usage: pg.sh start|stop DIR}"

bindir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$d" ] || [ ! -x "$d/initdb" ]; then
    echo "pg.sh: installing Debian's postgresql" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 || {
      apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    }
    d="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  fi
  echo "$d"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
  bin="$(bindir)"
  mkdir -p "$dir"
  chmod 755 "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  as_owner "$bin/initdb" -D "$dir/data" -U hexfire --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-h 127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U hexfire hexfire
  echo "$port" >"$dir/port"
  echo "postgresql://hexfire@127.0.0.1:$port/hexfire"
  ;;
stop)
  if [ -d "$dir/data" ]; then
    bin="$(bindir)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: pg.sh start|stop DIR" >&2
  exit 2
  ;;
esac
