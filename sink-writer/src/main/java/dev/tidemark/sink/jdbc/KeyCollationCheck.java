package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses a pre-existing target table whose primary key would merge distinct source keys (a case-, accent- or
 * pad-insensitive key collation, see {@link Dialect#mergingKeyCollation}) before the sink writes to it: a
 * {@link Failure.Fault} naming table, column, collation and the fix. A table passes once per sink; not thread-safe.
 */
final class KeyCollationCheck {
    private final Connection connection;
    private final Dialect dialect;
    private final Set<String> passed = new HashSet<>();

    KeyCollationCheck(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    /** Throws a {@link SinkException} when {@code table}'s key would merge distinct keys. */
    void check(String table) throws SQLException {
        if (passed.contains(table)) {
            return;
        }
        Optional<String> refusal = dialect.mergingKeyCollation(connection, table);
        if (refusal.isPresent()) {
            throw new SinkException(refusal.get(), null, new Failure.Fault(Failure.Cause.SCHEMA));
        }
        passed.add(table);
    }
}
