#!/usr/bin/env bash
# Starts PgBouncer (Debian's package) in transaction mode in front of a PostgreSQL, for trying
# and testing the service behind a pooler. Idempotent: installs the package when it is missing,
# and leaves a PgBouncer already listening on the port alone. Every database of the server is
# reached under its own name. Prints the DATABASE_URL to use on its last line; run the service
# with DATABASE_PREPARED_STATEMENTS=false (PgBouncer 1.18 does not keep prepared statements).
#   PGBOUNCER_PORT   where it listens (5442)
#   PGBOUNCER_DIR    its config, log and pid (/tmp/wiki-pgbouncer)
#   PGBOUNCER_POOL   server connections per database and user (20)
#   PG_HOST, PG_PORT the PostgreSQL behind it (127.0.0.1, 5432)
set -euo pipefail

PORT=${PGBOUNCER_PORT:-5442}
DIR=${PGBOUNCER_DIR:-/tmp/wiki-pgbouncer}
POOL=${PGBOUNCER_POOL:-20}
PG_HOST=${PG_HOST:-127.0.0.1}
PG_PORT=${PG_PORT:-5432}
DB_NAME=${PGDATABASE_NAME:-wiki_test}
DB_USER=${PGUSER_NAME:-wiki}
DB_PASS=${PGPASSWORD_VALUE:-wiki}

if ! command -v pgbouncer >/dev/null; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >&2
fi

if ! (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  mkdir -p "$DIR"
  cat >"$DIR/pgbouncer.ini" <<INI
[databases]
* = host=$PG_HOST port=$PG_PORT user=$DB_USER password=$DB_PASS

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = plain
auth_file = $DIR/userlist.txt
pool_mode = transaction
default_pool_size = $POOL
max_client_conn = 1000
max_db_connections = $POOL
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
INI
  echo "\"$DB_USER\" \"$DB_PASS\"" >"$DIR/userlist.txt"
  chmod 600 "$DIR/userlist.txt"
  # PgBouncer refuses to run as root.
  owner=postgres
  chown -R "$owner" "$DIR"
  su "$owner" -s /bin/bash -c "pgbouncer -d '$DIR/pgbouncer.ini'" >&2
  for _ in $(seq 1 30); do
    (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.2
  done
fi

echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:$PORT/$DB_NAME"
