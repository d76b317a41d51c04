#!/usr/bin/env bash
# The sink benchmark: Tidemark's sink writer vs hand-written JDBC baselines on one pre-loaded Kafka topic.
# Builds the bench module (and what it needs) without installing anything, then runs it:
#   bench/sink.sh                      # 1,000,000 records, every contender (several minutes)
#   bench/sink.sh --events 100000      # a quick run
#   bench/sink.sh --contenders tidemark-sqlite,raw-sqlite --batch 5000
# Options: --events N --batch N --contenders a,b,… --rounds N --seed N --partitions N --pg URL --pg-user USER --jvm "OPTS"
#          --consumer k=v,… (extra Kafka consumer properties, for every contender) --workdir DIR
# PostgreSQL contenders use the server at --pg (default jdbc:postgresql://127.0.0.1:5432/, user postgres) and create
# and drop their own database. See docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  mvn -B -q -DskipTests ${MVN_FLAGS:-} -pl bench -am package
  # the Debezium JDBC sink contenders' own class path (bench/target/debezium-jdbc-lib), see DebeziumClassPath
  mvn -B -q ${MVN_FLAGS:-} -f bench/debezium-jdbc/pom.xml package
fi
exec java ${BENCH_PARENT_JVM:--Xmx1g} -cp "bench/target/tidemark-bench.jar:bench/target/lib/*" dev.tidemark.bench.SinkBenchmark "$@"
