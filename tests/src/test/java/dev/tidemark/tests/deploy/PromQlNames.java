package dev.tidemark.tests.deploy;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana {@code label_values(metric, label)} query) selects: every
 * identifier that is not a function call, a keyword, a label (inside {@code {…}}, {@code by (…)}, {@code without (…)},
 * {@code on (…)}, {@code ignoring (…)}, {@code group_left (…)}, {@code group_right (…)}), a string, a range or a Grafana
 * variable. Pure; enough for the queries this repository ships, not a full PromQL parser.
 */
public final class PromQlNames {
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
            "unless", "bool", "offset", "inf", "nan");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])[a-zA-Z_:][a-zA-Z0-9_:]*");

    private PromQlNames() {
    }

    public static Set<String> of(String expr) {
        String e = expr.replaceAll("\\$\\{?\\w+}?", " ")
                .replaceAll("\"(\\\\.|[^\"\\\\])*\"|'(\\\\.|[^'\\\\])*'", " ")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\blabel_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,\\s*\\w+\\s*\\)", " $1 ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(e);
        while (m.find()) {
            String word = m.group();
            boolean call = e.substring(m.end()).stripLeading().startsWith("(");
            if (!call && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
                names.add(word);
            }
        }
        return names;
    }
}
