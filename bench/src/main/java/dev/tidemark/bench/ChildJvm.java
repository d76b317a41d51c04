package dev.tidemark.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark contender's child JVM, as the sink and capture launchers start it: this JVM's {@code java}, the
 * contender's JVM options, Tidemark's log level at WARN, a class path and a main class with its arguments. Its output
 * is echoed indented; its {@code RESULT k=v;…} lines ({@link BenchArgs#result}) are collected instead.
 */
final class ChildJvm {
    private ChildJvm() {
    }

    /** What the child printed and how it ended. */
    record Outcome(int exit, List<Map<String, String>> results, String lastLine) {
        /** A one-line failure for the results table. */
        String failure() {
            return "FAILED (exit " + exit + ")" + (lastLine.isEmpty() ? "" : ": " + lastLine);
        }
    }

    /** The command line; {@code jvmOptions} are split on white space. */
    static List<String> command(String jvmOptions, String classPath, Class<?> main, List<String> arguments) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String opt : jvmOptions.trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.addAll(List.of("-DTIDEMARK_LOG_LEVEL=WARN", "-cp", classPath, main.getName()));
        cmd.addAll(arguments);
        return cmd;
    }

    /** Runs {@code command} to its end; lines that already start with four spaces are echoed as they are. */
    static Outcome run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<Map<String, String>> results = new ArrayList<>();
        String lastLine = "";
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    results.add(BenchArgs.result(line.substring("RESULT ".length())));
                } else {
                    System.out.println(line.startsWith("    ") ? line : "    | " + line);
                    lastLine = line;
                }
            }
        }
        return new Outcome(p.waitFor(), results, lastLine);
    }

    /** The result of a contender that did not run, printed and marked {@code skipped} for the table. */
    static Map<String, String> skipped(String contender, String why) {
        System.out.println("    " + why);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("contender", contender);
        m.put("skipped", why);
        return m;
    }
}
