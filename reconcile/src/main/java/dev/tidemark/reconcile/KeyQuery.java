package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.ValueKind;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A predicate selecting rows by a list of keys given as canonical text, with the values bound in the type the engine
 * compares each key column with (the engine's {@link Database#keyTerm}, {@link Database#keyParameter} and
 * {@link Database#bindKey}): {@code "id" IN (?, ?, …)} for one key column, {@code ("a" = ? AND "b" = ?) OR …}
 * for several.
 */
final class KeyQuery {
    private final Database engine;
    private final List<ValueKind> kinds;
    private final List<RowKey> keys;
    private final String where;

    private KeyQuery(Database engine, List<ValueKind> kinds, List<RowKey> keys, String where) {
        this.engine = engine;
        this.kinds = kinds;
        this.keys = keys;
        this.where = where;
    }

    static KeyQuery of(Database engine, TableShape shape, boolean sourceSide, List<RowKey> keys) {
        List<String> terms = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            TableShape.Compared c = shape.columns().get(i);
            terms.add(engine.keyTerm(engine.quote(sourceSide ? c.name() : c.targetName()), c.kind()));
            params.add(engine.keyParameter(c.kind(), (sourceSide ? c.sourceColumn() : c.targetColumn()).declaredType()));
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

    String where() {
        return where;
    }

    /** Binds every key's values from parameter {@code from} on; returns the next free index. */
    int bind(PreparedStatement ps, int from) throws SQLException {
        int p = from;
        for (RowKey key : keys) {
            for (int c = 0; c < kinds.size(); c++) {
                engine.bindKey(ps, p++, kinds.get(c), key.values().get(c));
            }
        }
        return p;
    }

    /** A key value as the change-event value type of its kind (for repair deletes). */
    static Object eventValue(ValueKind kind, String text) {
        return kind.eventValue(text);
    }
}
