#!/usr/bin/env bash
# Makes a PostgreSQL 15 primary and a streaming replica of it on this machine, replication over
# loopback, for the read-replica test (tests/replica_test.ts) and for trying DATABASE_REPLICA_URLS.
# A cluster of their own (not the main one): the primary on PG_PRIMARY_PORT (5440), the replica,
# made with pg_basebackup, on PG_REPLICA_PORT (5441). Idempotent: what exists is kept, a stopped
# cluster is started. Needs PostgreSQL 15 and pgvector installed (scripts/setup_postgres.sh) and
# root. Prints the primary's URL, then the replica's, on its last two lines.
#
# The replica streams through a physical replication slot (REPLICA_SLOT) on the primary, so the
# primary keeps the WAL the replica has not received yet: without one, a bulk load (the bench's
# 1M-chunk hub) wrote past what the primary keeps and the replica stopped for good ("requested
# WAL segment … has already been removed"). max_slot_wal_keep_size (PG_SLOT_WAL_KEEP, 10GB)
# bounds what a stopped replica may hold on the primary's disk; past it the slot is given up and
# the replica must be made again (pg_dropcluster 15 wiki_replica --stop, then this script).
set -euo pipefail

PG_VERSION=15
PRIMARY=${PG_PRIMARY_NAME:-wiki_primary}
PRIMARY_PORT=${PG_PRIMARY_PORT:-5440}
REPLICA=${PG_REPLICA_NAME:-wiki_replica}
REPLICA_PORT=${PG_REPLICA_PORT:-5441}
DB_NAME=${PGDATABASE_NAME:-wiki_test}
DB_USER=${PGUSER_NAME:-wiki}
DB_PASS=${PGPASSWORD_VALUE:-wiki}
SLOT=${REPLICA_SLOT:-${REPLICA}_slot}
WAL_KEEP=${PG_SLOT_WAL_KEEP:-10GB}

exists() { pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$PG_VERSION $1"; }
online() { pg_lsclusters -h | grep -q "^$PG_VERSION $1 .* online"; }
start() { online "$1" || pg_ctlcluster "$PG_VERSION" "$1" start -- -t 600 >&2; }

if ! exists "$PRIMARY"; then
  pg_createcluster "$PG_VERSION" "$PRIMARY" -p "$PRIMARY_PORT" >&2
  # Replication to a standby on loopback (Debian's pg_hba.conf already lets 127.0.0.1 in).
  conf=/etc/postgresql/$PG_VERSION/$PRIMARY/postgresql.conf
  printf "listen_addresses = '127.0.0.1'\nwal_level = replica\nmax_wal_senders = 5\n" >>"$conf"
fi
# Set on a primary made before the slot was (a reload takes it: no restart).
primary_conf=/etc/postgresql/$PG_VERSION/$PRIMARY/postgresql.conf
grep -q '^max_slot_wal_keep_size' "$primary_conf" ||
  printf "max_slot_wal_keep_size = %s\n" "$WAL_KEEP" >>"$primary_conf"
start "$PRIMARY"
for _ in $(seq 1 30); do su postgres -c "pg_isready -q -p $PRIMARY_PORT" && break; sleep 1; done

as_pg() { su postgres -c "psql -p $PRIMARY_PORT -v ON_ERROR_STOP=1 -qtAc \"$1\""; }
if [ "$(as_pg "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
  as_pg "CREATE ROLE $DB_USER LOGIN SUPERUSER REPLICATION PASSWORD '$DB_PASS'" >&2
fi
if [ "$(as_pg "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  as_pg "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi
su postgres -c "PGOPTIONS='-c client_min_messages=warning' psql -p $PRIMARY_PORT -v ON_ERROR_STOP=1 -qd $DB_NAME -c 'CREATE EXTENSION IF NOT EXISTS vector'" >&2
as_pg "SELECT pg_reload_conf()" >/dev/null
# The slot, reserving WAL from now on (true): made before the base backup, which streams from it.
if [ "$(as_pg "SELECT 1 FROM pg_replication_slots WHERE slot_name = '$SLOT'")" != 1 ]; then
  as_pg "SELECT pg_create_physical_replication_slot('$SLOT', true)" >/dev/null
fi

if ! exists "$REPLICA"; then
  pg_createcluster "$PG_VERSION" "$REPLICA" -p "$REPLICA_PORT" >&2
  data=/var/lib/postgresql/$PG_VERSION/$REPLICA
  rm -rf "$data"
  # -R writes standby.signal, primary_conninfo and primary_slot_name: the copy starts as a
  # standby streaming through the slot.
  su postgres -c "PGPASSWORD=$DB_PASS pg_basebackup -h 127.0.0.1 -p $PRIMARY_PORT -U $DB_USER -D $data -R -S $SLOT -X stream -c fast" >&2
  printf "listen_addresses = '127.0.0.1'\nhot_standby = on\n" >>"/etc/postgresql/$PG_VERSION/$REPLICA/postgresql.conf"
fi
# A replica made before the slot was streams through it from its next start.
replica_auto=/var/lib/postgresql/$PG_VERSION/$REPLICA/postgresql.auto.conf
if ! grep -q '^primary_slot_name' "$replica_auto"; then
  echo "primary_slot_name = '$SLOT'" >>"$replica_auto"
  online "$REPLICA" && pg_ctlcluster "$PG_VERSION" "$REPLICA" restart -- -t 600 >&2
fi
start "$REPLICA"
for _ in $(seq 1 30); do
  [ "$(su postgres -c "psql -p $REPLICA_PORT -qtAc 'SELECT pg_is_in_recovery()'" 2>/dev/null)" = t ] && break
  sleep 1
done

echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:$PRIMARY_PORT/$DB_NAME"
echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:$REPLICA_PORT/$DB_NAME"
