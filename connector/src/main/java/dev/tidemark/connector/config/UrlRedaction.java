package dev.tidemark.connector.config;

import dev.tidemark.jdbc.UrlMask;

/** Masks credentials embedded in JDBC URLs ({@code password=…}, {@code user:pass@host}) before they are logged: {@link UrlMask}. */
public final class UrlRedaction {
    private UrlRedaction() {
    }

    public static String mask(String url) {
        return UrlMask.mask(url);
    }
}
