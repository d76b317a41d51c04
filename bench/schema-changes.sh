#!/usr/bin/env bash
# Schema changes under kill -9, long form: the same SchemaChangeKillIT that `mvn -B verify` runs in its short form
# (four changes into SQLite), here with every followed change of SchemaChangeCorpusIT in turn on one table of 3,000
# rows, `kill -9` of `tidemark run` right after the target recorded each change, into SQLite, PostgreSQL and MariaDB.
#   bench/schema-changes.sh
# Exit code 0 when, after every kill, the target equals the source in every value on all three targets.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
mvn -B -q ${MVN_FLAGS:-} -pl tests -am verify -Dit.test=SchemaChangeKillIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false -Dtidemark.schema-kill.long=true || status=$?
report=tests/target/failsafe-reports/TEST-dev.tidemark.tests.capture.SchemaChangeKillIT.xml
if [[ -f "$report" ]]; then
  grep -o '<testsuite [^>]*>' "$report" | grep -o 'tests="[0-9]*"\|failures="[0-9]*"\|errors="[0-9]*"\|time="[0-9.]*"' | tr '\n' ' '
  echo
fi
exit "$status"
