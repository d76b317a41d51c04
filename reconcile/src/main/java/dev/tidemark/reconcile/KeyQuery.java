package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Engine;
import dev.tidemark.jdbc.ValueKind;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A predicate selecting rows by a list of keys given as canonical text, with the values bound in the type the engine
 * compares each key column with: {@code "id" IN (?, ?, …)} for one key column, {@code ("a" = ? AND "b" = ?) OR …}
 * for several.
 */
final class KeyQuery {
    private final Engine engine;
    private final List<ValueKind> kinds;
    private final List<RowKey> keys;
    private final String where;

    private KeyQuery(Engine engine, List<ValueKind> kinds, List<RowKey> keys, String where) {
        this.engine = engine;
        this.kinds = kinds;
        this.keys = keys;
        this.where = where;
    }

    static KeyQuery of(Engine engine, TableShape shape, boolean sourceSide, List<RowKey> keys) {
        List<String> terms = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            TableShape.Compared c = shape.columns().get(i);
            String q = engine.quote(sourceSide ? c.name() : c.targetName());
            // SQLite keeps decimals as text at their own scale: compare them in canonical form (no trailing zeros)
            terms.add(engine == Engine.SQLITE && c.kind() == ValueKind.DECIMAL
                    ? "(CASE WHEN instr(" + q + ", '.') > 0 THEN rtrim(rtrim(" + q + ", '0'), '.') ELSE " + q + " END)" : q);
            params.add(parameter(engine, c.kind(), (sourceSide ? c.sourceColumn() : c.targetColumn()).declaredType()));
        }
        StringBuilder w = new StringBuilder();
        if (terms.size() == 1) {
            w.append(terms.get(0)).append(" IN (");
            for (int k = 0; k < keys.size(); k++) {
                w.append(k == 0 ? "" : ", ").append(params.get(0));
            }
            w.append(')');
        } else {
            w.append('(');
            for (int k = 0; k < keys.size(); k++) {
                w.append(k == 0 ? "(" : " OR (");
                for (int c = 0; c < terms.size(); c++) {
                    w.append(c == 0 ? "" : " AND ").append(terms.get(c)).append(" = ").append(params.get(c));
                }
                w.append(')');
            }
            w.append(')');
        }
        return new KeyQuery(engine, shape.keyKinds(), keys, keys.isEmpty() ? "1 = 0" : w.toString());
    }

    /**
     * How a bound key value is written: PostgreSQL compares a text parameter with a uuid, json or domain column
     * only through a cast to the column's type.
     */
    private static String parameter(Engine engine, ValueKind kind, String declaredType) {
        if (engine != Engine.POSTGRESQL || kind != ValueKind.TEXT) {
            return "?";
        }
        String t = declaredType.toLowerCase(Locale.ROOT);
        if (t.equals("text") || t.equals("varchar") || t.equals("bpchar") || t.equals("name")) {
            return "?";
        }
        return "CAST(? AS " + engine.quote(declaredType) + ")";
    }

    String where() {
        return where;
    }

    /** Binds every key's values from parameter {@code from} on; returns the next free index. */
    int bind(PreparedStatement ps, int from) throws SQLException {
        int p = from;
        for (RowKey key : keys) {
            for (int c = 0; c < kinds.size(); c++) {
                bind(ps, p++, kinds.get(c), key.values().get(c));
            }
        }
        return p;
    }

    /** Binds a key value given as canonical text in the type this engine compares the column with. */
    private void bind(PreparedStatement ps, int i, ValueKind kind, String text) throws SQLException {
        boolean sqlite = engine == Engine.SQLITE;
        switch (kind) {
            case INTEGER -> ps.setLong(i, Long.parseLong(text));
            case DECIMAL -> {
                if (sqlite) {
                    ps.setString(i, text);
                } else {
                    ps.setBigDecimal(i, new BigDecimal(text));
                }
            }
            case FLOAT -> ps.setDouble(i, Double.parseDouble(text));
            case BOOLEAN -> {
                if (sqlite) {
                    ps.setInt(i, Boolean.parseBoolean(text) ? 1 : 0);
                } else {
                    ps.setBoolean(i, Boolean.parseBoolean(text));
                }
            }
            case TIMESTAMPTZ -> {
                if (sqlite) {
                    ps.setString(i, text);
                } else {
                    OffsetDateTime t = OffsetDateTime.parse(text);
                    ps.setObject(i, engine == Engine.POSTGRESQL ? t : t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
                }
            }
            case TIMESTAMP, DATE, TIME -> {
                if (sqlite) {
                    ps.setString(i, text);
                } else {
                    ps.setObject(i, eventValue(kind, text));
                }
            }
            case BYTES -> ps.setBytes(i, HexFormat.of().parseHex(text));
            case TEXT -> ps.setString(i, text);
        }
    }

    /** A key value as the change-event value type of its kind (for repair deletes). */
    static Object eventValue(ValueKind kind, String text) {
        return switch (kind) {
            case INTEGER -> Long.parseLong(text);
            case DECIMAL -> new BigDecimal(text);
            case FLOAT -> Double.parseDouble(text);
            case BOOLEAN -> Boolean.parseBoolean(text);
            case TIMESTAMPTZ -> Instant.parse(text);
            case TIMESTAMP -> LocalDateTime.parse(text);
            case DATE -> LocalDate.parse(text);
            case TIME -> LocalTime.parse(text);
            case BYTES -> HexFormat.of().parseHex(text);
            case TEXT -> text;
        };
    }
}
