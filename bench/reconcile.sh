#!/usr/bin/env bash
# Reconcile benchmark: PostgreSQL source vs SQLite target (6 columns) at 1M and 10M rows, with no differences, 1,
# then 1% — side by side with the content read (COPY t TO STDOUT; SELECT on SQLite) and a data-diff-style
# sum(md5(row)) on the same tables. Starts a throwaway PostgreSQL (LocalPostgres, fsync off) unless
# --pg jdbc:postgresql://host:port/ is given. The heap is capped at 512 MiB to show that memory stays bounded.
# Figures (Markdown) on stdout and in bench/reconcile-results.md.
#   bench/reconcile.sh                         # 1M and 10M rows, about 10 minutes on 2 cores
#   bench/reconcile.sh --rows 100000,1000000   # smaller
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  mvn -B -q -DskipTests ${MVN_FLAGS:-} -pl bench -am package >&2
fi
java -Xmx512m -cp "bench/target/tidemark-bench.jar:bench/target/lib/*" dev.tidemark.bench.ReconcileBenchmark "$@" | tee bench/reconcile-results.md
