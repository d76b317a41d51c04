package dev.tidemark.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The command-line and result-line conventions the benchmark launchers share: options are {@code --name value}
 * pairs over a map of defaults ({@code -h}/{@code --help} prints the usage and exits 0, anything else exits 2), and a
 * child JVM reports one {@code RESULT k=v;k=v;…} line per contender. A launcher whose options hold {@code --child id}
 * is that child ({@link #parentOrChild}).
 */
final class BenchArgs {
    private BenchArgs() {
    }

    /** One entry point of a launcher: the parent or a child, given the options; returns the exit code. */
    @FunctionalInterface
    interface Entry {
        int run(Map<String, String> options) throws Exception;
    }

    /**
     * Defaults from lines of {@code name value} (the value is the rest of the line, possibly empty), in order; for
     * example {@code "events 1000000\njvm -Xms256m -Xmx1g\nconsumer"}.
     */
    static Map<String, String> defaults(String lines) {
        Map<String, String> d = new LinkedHashMap<>();
        for (String line : lines.strip().split("\n")) {
            String l = line.strip();
            int space = l.indexOf(' ');
            d.put(space < 0 ? l : l.substring(0, space), space < 0 ? "" : l.substring(space + 1).strip());
        }
        return d;
    }

    /** Exits with {@code child}'s code when the options name a {@code child} (also put as {@code contender}), else with {@code parent}'s. */
    static void parentOrChild(Map<String, String> o, Entry child, Entry parent) throws Exception {
        if (o.containsKey("child")) {
            o.put("contender", o.get("child"));
            System.exit(child.run(o));
        }
        System.exit(parent.run(o));
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
