#!/usr/bin/env bash
# The sink under kill -9, long form: the same SqliteSinkCrashIT, PostgresSinkCrashIT and MariaDbSinkCrashIT that
# `mvn -B verify` runs in their short form (a 30,000-record backlog, 4 kills each), here with a larger backlog and more
# kills (default 100,000 records, 6 kills), each kill checked against the exact state its stored offsets name.
#   bench/sink-crash.sh [--records N] [--kills N] [--seed N]
# Exit code 0 when every target ends equal to the expected state by key and row checksum.
set -euo pipefail
cd "$(dirname "$0")/.."
records=100000 kills=6 seed=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --records) records="$2"; shift 2 ;;
    --kills) kills="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "sink-crash.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
props=(-Dtidemark.crash.records="$records" -Dtidemark.crash.kills="$kills")
[[ -n "$seed" ]] && props+=(-Dtidemark.crash.seed="$seed")
mvn -B -q ${MVN_FLAGS:-} -pl tests -am verify -Dit.test='*SinkCrashIT' -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false "${props[@]}"
