package dev.tidemark.text;

/**
 * The escaping every HTML page of Tidemark uses (the status page, the compare report): pages are built as text, and
 * every value that did not come from the page's own code goes through {@link #escape} first, in element content and in
 * quoted attribute values alike.
 */
public final class Html {
    private Html() {
    }

    /** {@code s} as HTML content or quoted attribute value: {@code & < > " '} replaced by entities; null is empty. */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
