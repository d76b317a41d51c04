#!/usr/bin/env bash
# Runs one integration test class in its long form and prints its result line: the shared part of the long-form
# benchmarks (schema-changes.sh, topology-changes.sh).
#   bench/long-it.sh IT_CLASS PACKAGE LONG_PROPERTY
# Exit code: Maven's.
set -euo pipefail
cd "$(dirname "$0")/.."
it=$1 package=$2 property=$3
status=0
mvn -B -q ${MVN_FLAGS:-} -pl tests -am verify -Dit.test="$it" -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false -D"$property"=true || status=$?
report=tests/target/failsafe-reports/TEST-$package.$it.xml
if [[ -f "$report" ]]; then
  grep -o '<testsuite [^>]*>' "$report" | grep -o 'tests="[0-9]*"\|failures="[0-9]*"\|errors="[0-9]*"\|time="[0-9.]*"' | tr '\n' ' '
  echo
fi
exit "$status"
