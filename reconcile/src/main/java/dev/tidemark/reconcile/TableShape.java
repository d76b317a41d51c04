package dev.tidemark.reconcile;

import dev.tidemark.jdbc.UsageException;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.ValueKind;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceTable;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What is compared: the source's columns in source order, minus the excluded ones and Tidemark's own metadata
 * columns, each with the kind its values are normalised as (from the <em>source</em> column's type) and its name on
 * each side; the key columns; and whether the target keeps soft-deleted rows (they count as absent).
 *
 * @param columns       compared columns, key columns included
 * @param keyIndex      position of each key column in {@code columns}, in key order
 * @param targetDeleted the target's soft-delete column, or null when it has none
 */
record TableShape(SourceTable source, SourceTable target, String targetTable, List<Compared> columns, List<String> keyColumns,
                  int[] keyIndex, String targetDeleted) {

    /** One compared column: its name on each side and how its values are normalised. */
    record Compared(String name, String targetName, ValueKind kind, SourceColumn sourceColumn, SourceColumn targetColumn) {
    }

    /** The kind the first key column is normalised as; integer first keys allow range segments. */
    ValueKind firstKeyKind() {
        return columns.get(keyIndex[0]).kind();
    }

    List<ValueKind> keyKinds() {
        List<ValueKind> out = new ArrayList<>();
        for (int i : keyIndex) {
            out.add(columns.get(i).kind());
        }
        return out;
    }

    /**
     * Reads both tables' metadata and checks the request against it.
     *
     * @throws UsageException naming table, column and URL when a table or column is missing, the key is
     *                                  unknown or excluded, or there is no key at all
     */
    static TableShape resolve(ReconcileRequest request, Connection src, Database srcEngine, Connection tgt, Database tgtEngine)
            throws SQLException {
        SourceTable source = SourceTable.describe(src, srcEngine, request.sourceTable());
        SourceTable target;
        try {
            target = SourceTable.describe(tgt, tgtEngine, new TableId("", request.targetTable()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("target table " + request.targetTable() + " does not exist (or cannot be read) in "
                    + UrlMask.mask(request.target().jdbcUrl()), e);
        }
        List<String> keys = request.keyColumns().isEmpty() ? source.primaryKey() : request.keyColumns();
        if (keys.isEmpty()) {
            throw new UsageException("source table " + request.sourceTable() + " has no primary key: give the key "
                    + "column(s) with --key (source " + UrlMask.mask(request.source().jdbcUrl()) + ")");
        }
        Set<String> metadata = new java.util.HashSet<>(List.of(request.positionColumn(), SinkOptions.DEFAULT_POSITION_COLUMN, SinkOptions.DELETED_COLUMN));
        List<String> problems = new ArrayList<>();
        for (String k : keys) {
            if (source.column(k).isEmpty()) {
                problems.add("source table " + request.sourceTable() + " has no key column " + k + "; its columns are "
                        + source.columns().stream().map(SourceColumn::name).toList());
            } else if (request.excludedColumns().contains(k)) {
                problems.add("key column " + k + " of " + request.sourceTable() + " cannot be excluded");
            }
        }
        Set<String> unknownExcluded = new TreeSet<>(request.excludedColumns());
        List<Compared> columns = new ArrayList<>();
        for (SourceColumn c : source.columns()) {
            unknownExcluded.remove(c.name());
            if (request.excludedColumns().contains(c.name()) || metadata.contains(c.name())) {
                continue;
            }
            SourceColumn t = find(target, c.name());
            if (t == null) {
                problems.add("target table " + request.targetTable() + " has no column " + c.name() + " (a column of source table "
                        + request.sourceTable() + "); leave it out with --exclude " + c.name());
                continue;
            }
            columns.add(new Compared(c.name(), t.name(), ValueKind.of(c.kind(), c.declaredType()), c, t));
        }
        if (!unknownExcluded.isEmpty()) {
            problems.add("excluded column(s) " + unknownExcluded + " are not columns of source table " + request.sourceTable());
        }
        if (!problems.isEmpty()) {
            throw new UsageException(String.join("; ", problems));
        }
        int[] keyIndex = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            keyIndex[i] = indexOf(columns, k);
        }
        SourceColumn deleted = find(target, SinkOptions.DELETED_COLUMN);
        return new TableShape(source, target, request.targetTable(), columns, keys, keyIndex, deleted == null ? null : deleted.name());
    }

    private static int indexOf(List<Compared> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("no compared column " + name);
    }

    /** The target column of that name: exactly, else ignoring case (MariaDB and SQLite names are case-insensitive). */
    private static SourceColumn find(SourceTable table, String name) {
        SourceColumn loose = null;
        for (SourceColumn c : table.columns()) {
            if (c.name().equals(name)) {
                return c;
            }
            if (c.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                loose = c;
            }
        }
        return loose;
    }
}
