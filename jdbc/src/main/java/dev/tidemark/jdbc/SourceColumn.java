package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;

/**
 * One column of a watermark source table as its metadata declares it.
 *
 * @param fractionDigits fraction-of-second digits a temporal column keeps (-1 when unknown, e.g. SQLite text)
 * @param declaredType   the type as the source spells it, for messages
 */
public record SourceColumn(String name, ColumnKind kind, ColumnType type, boolean nullable, int fractionDigits, String declaredType) {
}
