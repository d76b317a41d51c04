package dev.tidemark.jdbc;

/**
 * What every facet of one engine ({@link SourceSql}, {@link Dialect}) shares: its name and how it quotes identifiers.
 * Identifiers are untrusted: quoting doubles embedded quote characters. Stateless.
 */
public interface EngineNaming {

    /** The engine's short name ({@code postgresql}, {@code mariadb}, {@code sqlite}, {@code jdbc}). */
    String name();

    /** Quotes one identifier, doubling embedded quote characters; double quotes (standard SQL) by default. */
    default String quote(String identifier) {
        return Identifiers.doubleQuoted(identifier);
    }
}
