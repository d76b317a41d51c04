# Tidemark sidecar image: build stage (Maven + JDK 17) → runtime stage (JRE 17, non-root, the launcher as entrypoint).
#   docker build -t tidemark .          docker run --rm tidemark --help
# docker-compose.yml builds this image for its `tidemark` service.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# the POMs first (every module the root POM lists, or Maven refuses the reactor): the dependency download below is
# cached until a POM changes
COPY pom.xml ./
COPY text/pom.xml text/
COPY process/pom.xml process/
COPY event/pom.xml event/
COPY jdbc/pom.xml jdbc/
COPY sink-writer/pom.xml sink-writer/
COPY connect-sink/pom.xml connect-sink/
COPY devenv/pom.xml devenv/
COPY connector/pom.xml connector/
COPY reconcile/pom.xml reconcile/
COPY compare/pom.xml compare/
COPY cli/pom.xml cli/
COPY testkit/pom.xml testkit/
COPY tests/pom.xml tests/
COPY bench/pom.xml bench/
COPY text/src text/src
COPY process/src process/src
COPY event/src event/src
COPY jdbc/src jdbc/src
COPY sink-writer/src sink-writer/src
COPY devenv/src devenv/src
COPY connector/src connector/src
COPY reconcile/src reconcile/src
COPY compare/src compare/src
COPY cli/src cli/src
# only the command's modules (cli and what it needs), no tests: they run in CI (mvn -B verify), not in the image build
RUN mvn -B -q -Dstyle.color=never -DskipTests -pl cli -am package

FROM eclipse-temurin:17-jre
# curl for the container healthcheck (GET /health on observability.port)
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 tidemark \
 && useradd --system --uid 10001 --gid tidemark --home-dir /var/lib/tidemark --shell /usr/sbin/nologin tidemark \
 && mkdir -p /opt/tidemark/cli/target /var/lib/tidemark \
 && chown tidemark:tidemark /var/lib/tidemark
# the launcher finds the jar at cli/target/tidemark.jar next to itself (its dependencies in cli/target/lib, named by
# the jar's Class-Path); without sources or a POM beside it, it never tries to rebuild. cli/target/dev-lib (devenv and
# the Kafka broker, for demo, compare and dev-kafka) stays out: the image has no broker, and its demo says so
COPY --from=build /src/cli/target/tidemark.jar /opt/tidemark/cli/target/tidemark.jar
COPY --from=build /src/cli/target/lib /opt/tidemark/cli/target/lib
COPY tidemark /opt/tidemark/tidemark
USER tidemark
WORKDIR /var/lib/tidemark
VOLUME ["/var/lib/tidemark"]
ENTRYPOINT ["/opt/tidemark/tidemark"]
CMD ["--help"]
