package dev.tidemark.jdbc;

import java.util.regex.Pattern;

/**
 * Masks credentials embedded in JDBC URLs, or in any text quoting one, before it reaches a message or a log line:
 * URL parameters ({@code password=…}, {@code pwd=…}, {@code secret=…}, {@code token=…}, separated by {@code &} or
 * {@code ;}) and user information ({@code //user:password@host}). Everything else is kept, so the URL still says
 * which database is meant. A quoted value after such a key ({@code password="…"}, as in a Kafka JAAS line) is masked
 * whole, quotes kept.
 */
public final class UrlMask {
    private static final String HIDDEN = "[hidden]";
    /** A host (name, IPv4, bracketed IPv6, optional port) and what may follow it in a URL. */
    private static final String HOST_AHEAD = "(?=[A-Za-z0-9.\\-\\[\\]:%]+(?:[/?;,'\")\\s]|$))";
    // (?!\[hidden]) keeps text masked twice (a message quoting a masked URL) as it was, closing bracket included
    private static final Pattern PARAM = Pattern.compile("(?i)((?:password|passwd|pwd|secret|token)=)(?!\\[hidden])(?![\"'])[^&;\\s'\"]*");
    /** {@code password="…"} or {@code password='…'}: the quoted value, backslash escapes included, to its closing quote. */
    private static final Pattern QUOTED = Pattern.compile("(?i)((?:password|passwd|pwd|secret|token)\\s*=\\s*)([\"'])(?!\\[hidden]\\2)(?:\\\\.|(?!\\2).)*(?:\\2|$)");
    /**
     * {@code //user:password@host}: the password runs to the last {@code @} of the word that a host name follows, so a
     * password holding {@code /} or {@code @} is masked whole (a doubtful case masks more, never less).
     */
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]+:)(?!\\[hidden]@)[^\\s'\"]*@" + UrlMask.HOST_AHEAD);

    private UrlMask() {
    }

    /** {@code text} with every embedded credential replaced by {@code [hidden]}; null stays null. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        String quoted = QUOTED.matcher(text).replaceAll("$1$2[hidden]$2");
        return USERINFO.matcher(PARAM.matcher(quoted).replaceAll("$1[hidden]")).replaceAll("$1[hidden]@");
    }

    /**
     * {@code text} masked, and also every credential of {@code url} wherever it appears in it: a driver's message
     * can quote a password without its {@code password=} or {@code //user:…@} (e.g. "unknown host app:s3cret@db").
     */
    public static String mask(String text, String url) {
        String masked = mask(text);
        if (masked == null || url == null) {
            return masked;
        }
        for (String secret : secretsOf(url)) {
            masked = masked.replace(secret, HIDDEN);
        }
        return masked;
    }

    private static java.util.List<String> secretsOf(String url) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher p = Pattern.compile("(?i)(?:password|passwd|pwd|secret|token)=([^&;\\s'\"]+)").matcher(url);
        while (p.find()) {
            out.add(p.group(1));
        }
        java.util.regex.Matcher u = Pattern.compile("//[^/:@\\s]+:([^\\s'\"]+)@" + HOST_AHEAD).matcher(url);
        while (u.find()) {
            out.add(u.group(1));
        }
        out.removeIf(s -> s.equals(HIDDEN) || s.isEmpty());
        return out;
    }
}
