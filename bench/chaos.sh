#!/usr/bin/env bash
# The chaos harness, long form: the same ChaosIT that `mvn -B verify` runs in its short form (8 faults, each kind
# once), here with many more faults, mostly kill -9, 30 s target locks and transactions of up to 30,000 rows.
#   bench/chaos.sh                         # >= 50 kills (about 15-20 minutes on 2 cores)
#   bench/chaos.sh --faults 80 --kills 60 --seed 7
# Options: --faults N (all faults, default 70) --kills N (at least this many kill -9, default 50)
#          --lock-seconds N (default 30) --big-max N (largest transaction, default 30000)
#          --rate N (average rows/s the writer paces itself to, default 2000) --seed N
# Prints the fault table (fault -> count -> what the pipeline did) and the final comparisons; also written to
# tests/target/chaos-report.md. Exit code 0 when reconcile and the independent comparison find 0 differences.
set -euo pipefail
cd "$(dirname "$0")/.."
faults=70 kills=50 lock=30 big=30000 rate=2000 seed=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --faults) faults="$2"; shift 2 ;;
    --kills) kills="$2"; shift 2 ;;
    --lock-seconds) lock="$2"; shift 2 ;;
    --big-max) big="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "chaos.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
props=(-Dtidemark.chaos.faults="$faults" -Dtidemark.chaos.min-kills="$kills" -Dtidemark.chaos.lock-seconds="$lock"
       -Dtidemark.chaos.big-max="$big" -Dtidemark.chaos.rate="$rate")
[[ -n "$seed" ]] && props+=(-Dtidemark.chaos.seed="$seed")
status=0
mvn -B -q ${MVN_FLAGS:-} -pl tests -am verify -Dit.test=ChaosIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false "${props[@]}" || status=$?
if [[ -f tests/target/chaos-report.md ]]; then
  cat tests/target/chaos-report.md
else
  echo "chaos.sh: no report written; see tests/target/failsafe-reports/dev.tidemark.tests.chaos.ChaosIT-output.txt" >&2
fi
exit "$status"
