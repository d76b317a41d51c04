#!/usr/bin/env bash
# Schema changes under kill -9, long form: the same SchemaChangeKillIT that `mvn -B verify` runs in its short form
# (four changes into SQLite), here with every followed change of SchemaChangeCorpusIT in turn on one table of 3,000
# rows, `kill -9` of `tidemark run` right after the target recorded each change, into SQLite, PostgreSQL and MariaDB.
#   bench/schema-changes.sh
# Exit code 0 when, after every kill, the target equals the source in every value on all three targets.
exec "$(dirname "$0")/long-it.sh" SchemaChangeKillIT dev.tidemark.tests.capture tidemark.schema-kill.long
