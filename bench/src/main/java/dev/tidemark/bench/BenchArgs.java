package dev.tidemark.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The command-line and result-line conventions the benchmark launchers share: options are {@code --name value}
 * pairs over a map of defaults ({@code -h}/{@code --help} prints the usage and exits 0, anything else exits 2), and a
 * child JVM reports one {@code RESULT k=v;k=v;…} line per contender.
 */
final class BenchArgs {
    private BenchArgs() {
    }

    /** {@code defaults} overridden by {@code args}; {@code name} prefixes the one-line error. */
    static Map<String, String> options(String[] args, Map<String, String> defaults, String usage, String name) {
        Map<String, String> o = new LinkedHashMap<>(defaults);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println(usage);
                System.exit(0);
            }
            if (!a.startsWith("--") || i + 1 >= args.length) {
                System.err.println(name + ": bad argument " + a + " (try --help)");
                System.exit(2);
            }
            o.put(a.substring(2), args[++i]);
        }
        return o;
    }

    /** The fields of a result line's {@code k=v;k=v} part, in order. */
    static Map<String, String> result(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String kv : line.split(";")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return m;
    }
}
