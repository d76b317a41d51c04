package dev.tidemark.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class path of the Debezium JDBC sink contenders' child JVM: bench's own code plus
 * {@code bench/target/debezium-jdbc-lib}, which {@code bench/debezium-jdbc/pom.xml} fills with Debezium's JDBC sink
 * and its own Debezium modules at one version (the sink is not served at the engine's version, so it cannot share
 * bench's class path). {@link #oneVersion} is the check that no two Debezium versions meet on a class path.
 */
final class DebeziumClassPath {
    static final String LIB = "debezium-jdbc-lib";
    private static final Pattern JAR = Pattern.compile("(debezium-[a-z-]+)-(\\d+\\.\\d+\\.\\d+\\.[A-Za-z0-9]+)\\.jar");

    private DebeziumClassPath() {
    }

    /** The child's {@code -cp}: {@code benchCode} (bench's jar or classes folder) and every jar of the lib folder beside it. */
    static String forChild(Path benchCode) {
        return benchCode + File.pathSeparator + lib(benchCode) + File.separator + "*";
    }

    /** The lib folder {@code bench/debezium-jdbc/pom.xml} fills: in bench's {@code target}, beside its jar or classes. */
    static Path lib(Path benchCode) {
        return benchCode.toAbsolutePath().getParent().resolve(LIB);
    }

    /** Why the child cannot start from {@code benchCode}, or empty when its lib folder is there. */
    static String missing(Path benchCode) {
        return Files.isDirectory(lib(benchCode)) ? ""
                : lib(benchCode) + " is missing (bench/sink.sh builds it: mvn -f bench/debezium-jdbc/pom.xml package)";
    }

    /** Debezium artifact → version, for the jars among {@code entries} (class path entries). */
    static Map<String, String> versions(List<String> entries) {
        Map<String, String> versions = new TreeMap<>();
        for (String entry : entries) {
            Matcher m = JAR.matcher(Path.of(entry).getFileName().toString());
            if (m.matches()) {
                versions.put(m.group(1), m.group(2));
            }
        }
        return versions;
    }

    /** The one Debezium version among {@code entries}; fails when there are none or several. */
    static String oneVersion(List<String> entries) {
        Map<String, String> versions = versions(entries);
        List<String> distinct = versions.values().stream().distinct().toList();
        if (distinct.size() != 1) {
            throw new IllegalStateException("expected one Debezium version on the class path, found " + versions);
        }
        return distinct.get(0);
    }

    /** This JVM's class path entries. */
    static List<String> own() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    }
}
