package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.sql.Connection;
import java.util.List;

/**
 * What a {@link RowReader} reads: the connection, the table as SQL, the compared columns as SQL with the kind each
 * is normalised as, and where the first key column is among them.
 *
 * @param table    the table, quoted (and qualified on the source)
 * @param columns  the compared columns, quoted, in comparison order
 * @param keyIndex position of the first key column in {@code columns}
 * @param keyCount how many key columns there are
 */
record SideQuery(Connection connection, String table, List<String> columns, List<ValueKind> kinds, int keyIndex, int keyCount) {

    SideQuery {
        columns = List.copyOf(columns);
        kinds = List.copyOf(kinds);
    }

    /** The select list. */
    String select() {
        return String.join(", ", columns);
    }

    /** The first key column, quoted. */
    String firstKey() {
        return columns.get(keyIndex);
    }

    /** {@code SELECT <columns> FROM <table><where><order>}. */
    String selectAll(String where, String order) {
        return "SELECT " + select() + " FROM " + table + where + order;
    }
}
