package dev.tidemark.tests.reconcile;

import dev.tidemark.tests.sink.TargetDatabase;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One kind of database in a reconcile scenario: how a fresh database is obtained, how the test's source table is
 * created and filled with native types, and how a hand-made target table stores the same values in a different
 * representation (other decimal scale, other zone, other text shape).
 */
enum Side {
    POSTGRESQL {
        @Override
        TargetDatabase newDatabase() {
            return TargetDatabase.postgres();
        }

        @Override
        String sourceDdl(String table) {
            return "CREATE TABLE " + table + " (id bigint PRIMARY KEY, amount numeric(20,8), happened timestamptz(6), flag boolean, "
                    + "label text, note text)";
        }

        @Override
        String variantDdl(String table, boolean zoned) {
            return "CREATE TABLE " + table + " (id bigint PRIMARY KEY, amount numeric(30,12), happened " + (zoned ? "timestamptz(6)" : "timestamp(6)")
                    + ", flag boolean, label varchar(200), note text, \"__tidemark_position\" text)";
        }

        @Override
        void bindTime(PreparedStatement ps, int i, Object t, boolean variant) throws SQLException {
            if (t instanceof Instant in) {
                // the variant writes the same instant at another offset: the representation must not matter
                ps.setObject(i, OffsetDateTime.ofInstant(in, variant ? ZoneOffset.ofHoursMinutes(5, 30) : ZoneOffset.UTC));
            } else {
                ps.setObject(i, t);
            }
        }
    },
    MARIADB {
        @Override
        TargetDatabase newDatabase() {
            return TargetDatabase.mariadb();
        }

        @Override
        String sourceDdl(String table) {
            return "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, amount DECIMAL(20,8), happened DATETIME(6), flag BOOLEAN, "
                    + "label VARCHAR(200), note LONGTEXT) CHARACTER SET utf8mb4";
        }

        @Override
        String variantDdl(String table, boolean zoned) {
            return "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, amount DECIMAL(30,12), happened DATETIME(6), flag TINYINT(1), "
                    + "label LONGTEXT, note LONGTEXT, `__tidemark_position` VARCHAR(255)) CHARACTER SET utf8mb4";
        }

        @Override
        boolean zoned() {
            return false;
        }

        @Override
        void bindTime(PreparedStatement ps, int i, Object t, boolean variant) throws SQLException {
            ps.setObject(i, t instanceof Instant in ? LocalDateTime.ofInstant(in, ZoneOffset.UTC) : t);
        }

        @Override
        void prepare(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION time_zone = '+00:00'");
            }
        }
    },
    SQLITE {
        @Override
        TargetDatabase newDatabase() throws Exception {
            return TargetDatabase.sqlite();
        }

        @Override
        String sourceDdl(String table) {
            return "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, amount DECIMAL_TEXT(20,8), happened TIMESTAMPTZ_TEXT, "
                    + "flag BOOLEAN_INTEGER, label TEXT, note TEXT)";
        }

        @Override
        String variantDdl(String table, boolean zoned) {
            return "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, amount TEXT, happened TEXT, flag TEXT, label TEXT, note TEXT, "
                    + "\"__tidemark_position\" TEXT)";
        }

        @Override
        void bindAmount(PreparedStatement ps, int i, BigDecimal d, boolean variant) throws SQLException {
            // the variant keeps decimals without trailing zeros, the sink's way keeps the source scale
            ps.setString(i, variant ? d.stripTrailingZeros().toPlainString() : d.toPlainString());
        }

        @Override
        void bindTime(PreparedStatement ps, int i, Object t, boolean variant) throws SQLException {
            if (t instanceof Instant in) {
                ps.setString(i, variant ? DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(OffsetDateTime.ofInstant(in, ZoneOffset.ofHours(2)))
                        : dev.tidemark.jdbc.TemporalText.instant(in));
            } else {
                LocalDateTime l = (LocalDateTime) t;
                ps.setString(i, variant ? l.toString().replace('T', ' ') : dev.tidemark.jdbc.TemporalText.localDateTime(l));
            }
        }

        @Override
        void bindFlag(PreparedStatement ps, int i, Boolean b, boolean variant) throws SQLException {
            if (b == null) {
                ps.setNull(i, Types.NULL);
            } else if (variant) {
                ps.setString(i, b ? "true" : "false");
            } else {
                ps.setInt(i, b ? 1 : 0);
            }
        }
    };

    abstract TargetDatabase newDatabase() throws Exception;

    abstract String sourceDdl(String table);

    /** A hand-made target table holding the same values in another representation (with a position column). */
    abstract String variantDdl(String table, boolean zoned);

    /** Whether this engine's source table has a zoned timestamp (MariaDB's DATETIME has none). */
    boolean zoned() {
        return true;
    }

    void prepare(Connection c) throws SQLException {
    }

    void bindAmount(PreparedStatement ps, int i, BigDecimal d, boolean variant) throws SQLException {
        ps.setBigDecimal(i, d);
    }

    abstract void bindTime(PreparedStatement ps, int i, Object t, boolean variant) throws SQLException;

    void bindFlag(PreparedStatement ps, int i, Boolean b, boolean variant) throws SQLException {
        if (b == null) {
            ps.setNull(i, Types.BOOLEAN);
        } else {
            ps.setBoolean(i, b);
        }
    }

    String quote(String identifier) {
        return this == MARIADB ? "`" + identifier + "`" : "\"" + identifier + "\"";
    }

    /** Inserts rows with this engine's native types (or, with {@code variant}, the variant representation). */
    void insert(Connection c, String table, Iterable<Rows.Row> rows, boolean variant) throws SQLException {
        prepare(c);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, amount, happened, flag, label, note) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Rows.Row r : rows) {
                ps.setLong(1, r.id());
                bindAmount(ps, 2, r.amount(), variant);
                bindTime(ps, 3, r.happened(), variant);
                bindFlag(ps, 4, r.flag(), variant);
                ps.setString(5, r.label());
                ps.setString(6, r.note());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
