#!/usr/bin/env bash
# Watermark-mode benchmark: no-change runs on 1M vs 10M rows (O(changed rows), not O(table)), a run after 1,000
# changes, and initial-load rows/s vs plain copies. Starts a throwaway PostgreSQL (LocalPostgres, fsync off) unless
# --pg jdbc:postgresql://host:port/ is given. Figures (Markdown) on stdout and in bench/watermark-results.md.
#   bench/watermark.sh                         # 1M and 10M rows, about 5 minutes on 2 cores
#   bench/watermark.sh --rows 100000,1000000   # smaller
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  mvn -B -q -DskipTests ${MVN_FLAGS:-} -pl bench -am package >&2
fi
java -Xmx2g -cp "bench/target/tidemark-bench.jar:bench/target/lib/*" dev.tidemark.bench.WatermarkBenchmark "$@" | tee bench/watermark-results.md
