package dev.tidemark.connector.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The TLS parameters of {@code source.url}, so that Debezium's replication connection is exactly as secure as the
 * JDBC connections pgjdbc opens from the same URL. Each of {@link #MAPPED} becomes Debezium's {@code database.<name>}
 * with the same value ({@link #debeziumSettings}); a TLS parameter Debezium has no setting for (any other one whose
 * name starts with {@code ssl}, {@code ssl} itself included) or an {@code sslmode} neither accepts is a refusal naming
 * the parameter ({@link #refusals}), as is one that {@code source.debezium} sets too. Parameters that are not about
 * TLS are left to pgjdbc.
 *
 * <p>Pure: parses the URL as pgjdbc does ({@code ?k=v&k=v}, values URL-decoded, the last of a repeated key wins), no
 * I/O. A refusal never quotes a value, so {@code sslpassword} cannot leak through one.
 */
public final class SourceTls {
    /** The pgjdbc URL parameters with a Debezium PostgreSQL connector setting of the same name under {@code database.}. */
    public static final List<String> MAPPED = List.of("sslmode", "sslrootcert", "sslcert", "sslkey", "sslpassword", "sslfactory");
    /** The {@code sslmode} values pgjdbc and Debezium both accept. */
    static final Set<String> MODES = Set.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

    private SourceTls() {
    }

    /** {@code database.<name>} → value for each parameter of {@link #MAPPED} that {@code jdbcUrl} sets, in URL order. */
    public static Map<String, String> debeziumSettings(String jdbcUrl) {
        Map<String, String> out = new LinkedHashMap<>();
        parameters(jdbcUrl).forEach((key, value) -> {
            if (MAPPED.contains(key)) {
                out.put("database." + key, value);
            }
        });
        return out;
    }

    /**
     * One line per parameter of {@code jdbcUrl} capture cannot apply to Debezium's connection, naming it, and per
     * parameter that {@code debezium} ({@code source.debezium}) sets as well; empty if none.
     */
    public static List<String> refusals(String jdbcUrl, Map<String, String> debezium) {
        List<String> out = new ArrayList<>();
        parameters(jdbcUrl).forEach((key, value) -> {
            if (MAPPED.contains(key) && debezium.containsKey("database." + key)) {
                out.add("URL parameter " + key + " is set in source.debezium too (database." + key + "): keep it in"
                        + " source.url only, where it applies to every connection");
            }
            if (key.equals("ssl")) {
                out.add("URL parameter ssl has no Debezium setting for capture's replication connection: write"
                        + " sslmode=verify-full (what ssl=true means to pgjdbc) or another sslmode instead");
            } else if (key.toLowerCase(Locale.ROOT).startsWith("ssl") && !MAPPED.contains(key)) {
                out.add("URL parameter " + key + " has no Debezium setting for capture's replication connection: remove"
                        + " it from source.url (the TLS parameters capture applies to every connection are " + MAPPED + ")");
            } else if (key.equals("sslmode") && !MODES.contains(value)) {
                out.add("URL parameter sslmode must be one of " + MODES.stream().sorted().toList()
                        + " (verify-full verifies the server's certificate and host name)");
            }
        });
        return out;
    }

    /** The URL's parameters after {@code ?}, keys as written, values decoded; a parameter without {@code =} has value "". */
    static Map<String, String> parameters(String jdbcUrl) {
        Map<String, String> out = new LinkedHashMap<>();
        int q = jdbcUrl == null ? -1 : jdbcUrl.indexOf('?');
        if (q < 0) {
            return out;
        }
        for (String token : jdbcUrl.substring(q + 1).split("&")) {
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(token.substring(eq + 1), StandardCharsets.UTF_8);
            out.remove(key); // the last occurrence decides, and its place in the order
            out.put(key, value);
        }
        return out;
    }
}
