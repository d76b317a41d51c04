package dev.tidemark.jdbc;

import java.util.regex.Pattern;

/**
 * Masks credentials embedded in JDBC URLs, or in any text quoting one, before it reaches a message or a log line:
 * URL parameters ({@code password=…}, {@code pwd=…}, {@code secret=…}, {@code token=…}, separated by {@code &} or
 * {@code ;}) and user information ({@code //user:password@host}). Everything else is kept, so the URL still says
 * which database is meant.
 */
public final class UrlMask {
    private static final Pattern PARAM = Pattern.compile("(?i)((?:password|passwd|pwd|secret|token)=)[^&;\\s'\"]*");
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]+:)[^@/\\s]*@");

    private UrlMask() {
    }

    /** {@code text} with every embedded credential replaced by {@code [hidden]}; null stays null. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        return USERINFO.matcher(PARAM.matcher(text).replaceAll("$1[hidden]")).replaceAll("$1[hidden]@");
    }
}
