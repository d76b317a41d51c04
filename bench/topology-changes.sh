#!/usr/bin/env bash
# Topology changes under kill -9, long form: the same TopologyChangeKillIT that `mvn -B verify` runs in its short form
# (six rounds into SQLite), here with every topology case of docs/schema-changes.md in turn on one pipeline (drop and
# re-create, TRUNCATE, a partition created, attached with rows, truncated, detached, REPLICA IDENTITY DEFAULT and
# NOTHING, a table added and one removed while stopped, an UNLOGGED table), `kill -9` of `tidemark run` in each round,
# into SQLite, PostgreSQL and MariaDB.
#   bench/topology-changes.sh
# Exit code 0 when every round ended as docs/schema-changes.md says and the target then equalled the source.
exec "$(dirname "$0")/long-it.sh" TopologyChangeKillIT dev.tidemark.tests.capture tidemark.topology-kill.long
