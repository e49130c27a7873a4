#!/usr/bin/env bash
# Installs and starts PostgreSQL 15 with pgvector on a Debian 12 machine, and creates the
# database the tests use. Idempotent: every step is skipped when its result is already there.
# Prints the DATABASE_URL to use on its last line. With --replica, it then also makes a primary
# and a streaming replica of their own (scripts/setup_replica.sh), whose two URLs follow.
set -euo pipefail

PG_VERSION=15
DB_NAME=${PGDATABASE_NAME:-wiki_test}
DB_USER=${PGUSER_NAME:-wiki}
DB_PASS=${PGPASSWORD_VALUE:-wiki}
PG_CONFIG=/usr/lib/postgresql/$PG_VERSION/bin/pg_config
updated=0

apt_update_once() {
  if [ "$updated" = 0 ]; then apt-get update -qq >&2; updated=1; fi
}

if [ ! -x /usr/lib/postgresql/$PG_VERSION/bin/postgres ]; then
  apt_update_once
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-$PG_VERSION >&2
fi

# pgvector: Debian 12 has no package for it, so build it from Debian 13's source package.
if [ ! -f "/usr/share/postgresql/$PG_VERSION/extension/vector.control" ]; then
  if [ ! -f "/usr/include/postgresql/$PG_VERSION/server/postgres.h" ]; then
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-server-dev-$PG_VERSION >&2
  fi
  src_list=/etc/apt/sources.list.d/trixie-src.sources
  if [ ! -f "$src_list" ]; then
    sed -n '0,/^$/p' /etc/apt/sources.list.d/debian.sources | grep -v '^#' |
      sed 's/^Types: deb$/Types: deb-src/; s/^Suites: .*/Suites: trixie/' >"$src_list"
    updated=0
  fi
  apt_update_once
  build=$(mktemp -d)
  (
    cd "$build"
    apt-get source --download-only pgvector >&2
    tar xzf pgvector_*.orig.tar.gz
    dir=$(find . -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)
    make -s -C "$dir" with_llvm=no OPTFLAGS="" PG_CONFIG="$PG_CONFIG" >&2
    make -s -C "$dir" with_llvm=no PG_CONFIG="$PG_CONFIG" install >&2
  )
  rm -rf "$build"
fi

# A cluster stopped without a shutdown (a machine snapshotted or killed mid-run) replays its WAL on
# start, and PostgreSQL first fsyncs every file of the data directory, one by one: with a few
# hundred databases that took over a minute, past pg_ctl's default wait, and CI gave up on a
# server that was still starting. syncfs syncs the file system in one call instead, and we wait
# for as long as recovery takes (the server keeps starting after pg_ctl stops waiting).
conf_d=/etc/postgresql/$PG_VERSION/main/conf.d
if [ -d "$conf_d" ] && [ ! -f "$conf_d/wiki-recovery.conf" ]; then
  echo "recovery_init_sync_method = syncfs" >"$conf_d/wiki-recovery.conf"
fi
if ! pg_lsclusters -h | grep -q "^$PG_VERSION main .* online"; then
  pg_ctlcluster $PG_VERSION main start -- -t 600 >&2 ||
    echo "pg_ctl stopped waiting; waiting for the server itself" >&2
fi
for _ in $(seq 1 600); do
  su postgres -c "pg_isready -q" && break
  sleep 1
done

as_pg() { su postgres -c "psql -v ON_ERROR_STOP=1 -qtAc \"$1\""; }
if [ "$(as_pg "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
  as_pg "CREATE ROLE $DB_USER LOGIN SUPERUSER PASSWORD '$DB_PASS'" >&2
fi
if [ "$(as_pg "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  as_pg "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi
su postgres -c "PGOPTIONS='-c client_min_messages=warning' psql -v ON_ERROR_STOP=1 -qd $DB_NAME -c 'CREATE EXTENSION IF NOT EXISTS vector'" >&2

echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:5432/$DB_NAME"
if [ "${1:-}" = "--replica" ]; then
  exec bash "$(dirname "$0")/setup_replica.sh"
fi
