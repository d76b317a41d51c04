package dev.tidemark.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OneDebeziumVersionTest {
    private static final Pattern JAR = Pattern.compile("(debezium-[a-z-]+)-(\\d+\\.\\d+\\.\\d+\\.[A-Za-z0-9]+)\\.jar");

    @Test
    void benchsClassPathCarriesOneDebeziumVersion() {
        Map<String, String> versions = new TreeMap<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Matcher m = JAR.matcher(Path.of(entry).getFileName().toString());
            if (m.matches()) {
                versions.put(m.group(1), m.group(2));
            }
        }
        assertThat(versions).as("Debezium artifacts on bench's class path").isNotEmpty();
        assertThat(versions.values()).as("versions of " + versions).containsOnly("3.6.1.Final");
    }
}
