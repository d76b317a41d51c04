#!/usr/bin/env bash
# The latency benchmark (issue 13): `./tidemark run` as a user starts it (the launcher, its default heap) between a
# throwaway PostgreSQL (LocalPostgres, fsync off) and a target (a new SQLite file, or a new database on the machine's
# PostgreSQL with --target postgres), with Kafka from LocalKafka (KRaft, child JVM). Measured from outside:
#   1. a backlog (--backlog changes in 1,000-row transactions) written while the pipeline is stopped, then the time
#      until the restarted pipeline has applied it;
#   2. steady load: for each transaction size (--txn-rows) and rate (--rates, changes/s), new rows committed on a fixed
#      schedule for --seconds after --warmup; commit → visible p50/p90/p99/p99.9 and the lag's slope;
#   3. the `tidemark run` process's peak RSS; a PNG of the percentiles against the rate (--plot).
#   bench/latency.sh --plot docs/latency.png                         # the issue's run: 6 × 5 minutes (~40 minutes)
#   bench/latency.sh --seconds 30 --warmup 5 --backlog 20000         # quick
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  mvn -B -q -DskipTests ${MVN_FLAGS:-} -pl bench,cli -am package >&2
fi
exec java ${BENCH_PARENT_JVM:--Xmx1g} -Djava.awt.headless=true -cp "bench/target/tidemark-bench.jar:bench/target/lib/*" dev.tidemark.bench.LatencyBenchmark "$@"
