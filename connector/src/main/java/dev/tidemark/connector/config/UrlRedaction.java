package dev.tidemark.connector.config;

import java.util.regex.Pattern;

/** Masks credentials embedded in JDBC URLs ({@code password=…}, {@code user:pass@host}) before they are logged. */
public final class UrlRedaction {
    private static final Pattern PARAM = Pattern.compile("(?i)((?:password|pwd|secret|token)=)[^&;]*");
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@]+:)[^@/]*@");

    private UrlRedaction() {
    }

    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        return USERINFO.matcher(PARAM.matcher(url).replaceAll("$1[hidden]")).replaceAll("$1[hidden]@");
    }
}
