package dev.tidemark.tests.capture;

import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;

/**
 * The rounds of {@link TopologyChangeKillIT}: one topology change each, with changes before and after it, the moment
 * {@code tidemark run} is killed, and the outcome docs/schema-changes.md states for it (followed, or one line).
 */
final class TopologyRounds {
    static final TableId OTHER = table("tk_other");
    static final TableId REC = table("tk_rec");
    static final TableId TRUNC = table("tk_trunc");
    static final TableId M = table("tk_m");
    static final TableId IDENT = table("tk_ident");
    static final TableId ADDED = table("tk_added");
    static final TableId SCRATCH = table("tk_scratch");
    /** Rows of the table added while stopped: enough that its incremental snapshot is still under way when checked. */
    static final int ADDED_ROWS = 40_000;

    private TopologyRounds() {
    }

    /** When {@code tidemark run} gets {@code kill -9}. */
    enum Kill {
        /** Right after the round's statements committed, while it runs. */
        AFTER_COMMIT,
        /** Before the change, which is then made while the pipeline is stopped (and {@code source.tables} edited). */
        WHILE_STOPPED,
        /** As {@link #WHILE_STOPPED}, and again while the added table's incremental snapshot is under way. */
        DURING_ADDED_SNAPSHOT
    }

    /**
     * One round. {@code tables}: {@code source.tables} from this round on (null: unchanged). {@code line}: the one line
     * the restart stops with ({@code FILE} for the pipeline file), null when the change is followed; {@code exit}: its
     * exit code. Rows the source gets while its table is no longer captured carry a note starting with
     * {@code uncaptured}.
     */
    record Round(String name, Kill kill, List<String> before, List<String> change, List<String> after, List<TableId> tables,
                 String line, int exit) {
        static Round followed(String name, Kill kill, List<String> before, List<String> change, List<String> after) {
            return new Round(name, kill, before, change, after, null, null, 0);
        }

        Round capturing(List<TableId> captured) {
            return new Round(name, kill, before, change, after, captured, line, exit);
        }

        Round stops(int code, String expected) {
            return new Round(name, kill, before, change, after, tables, expected, code);
        }
    }

    /** The source tables every form starts with; {@code tk_m} is partitioned and {@code tk_m_old} not yet attached. */
    static List<String> setup() {
        return List.of(
                "CREATE TABLE public.tk_other (id int PRIMARY KEY, note text)",
                "INSERT INTO tk_other SELECT g, 'o' || g FROM generate_series(1, 200) g",
                "CREATE TABLE public.tk_rec (id int PRIMARY KEY, note text)",
                "INSERT INTO tk_rec SELECT g, 'old ' || g FROM generate_series(1, 3000) g",
                "CREATE TABLE public.tk_trunc (id int PRIMARY KEY, note text)",
                "INSERT INTO tk_trunc SELECT g, 't' || g FROM generate_series(1, 300) g",
                "CREATE TABLE public.tk_m (id int, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
                "CREATE TABLE public.tk_m_1 PARTITION OF public.tk_m FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE public.tk_m_2 PARTITION OF public.tk_m FOR VALUES FROM (100) TO (200)",
                "INSERT INTO tk_m SELECT g, 'v' || g FROM generate_series(1, 150) g",
                "CREATE TABLE public.tk_m_old (id int NOT NULL, v text)",
                "INSERT INTO tk_m_old SELECT g, 'old' || g FROM generate_series(300, 319) g",
                "CREATE TABLE public.tk_ident (id int PRIMARY KEY, code text NOT NULL UNIQUE, balance int, doc text)",
                "ALTER TABLE tk_ident ALTER COLUMN doc SET STORAGE EXTERNAL",
                "INSERT INTO tk_ident SELECT g, 'c' || g, g, repeat(md5(g::text), 400) FROM generate_series(1, 20) g");
    }

    static final Round RECREATED = Round.followed("drop and re-create", Kill.AFTER_COMMIT,
            List.of("INSERT INTO tk_rec VALUES (3001, 'just before the drop')", "UPDATE tk_rec SET note = 'u' WHERE id % 100 = 0"),
            List.of("DROP TABLE public.tk_rec", "CREATE TABLE public.tk_rec (id int PRIMARY KEY, note text)"),
            List.of("INSERT INTO tk_rec SELECT g, 'new ' || g FROM generate_series(2001, 5000) g",
                    "UPDATE tk_rec SET note = 'after' WHERE id % 50 = 0", "DELETE FROM tk_rec WHERE id % 70 = 0"));

    static final Round TRUNCATED = Round.followed("TRUNCATE with applyTruncate", Kill.AFTER_COMMIT,
            List.of("INSERT INTO tk_trunc VALUES (301, 'before the truncate')", "UPDATE tk_trunc SET note = 'u' WHERE id % 10 = 0"),
            List.of("TRUNCATE tk_trunc"),
            List.of("INSERT INTO tk_trunc SELECT g, 'after ' || g FROM generate_series(401, 430) g", "UPDATE tk_trunc SET note = 'x' WHERE id = 401"));

    static final Round PARTITION_CREATED = Round.followed("partition created while streaming", Kill.AFTER_COMMIT,
            List.of("UPDATE tk_m SET v = 'before' WHERE id % 20 = 0", "INSERT INTO tk_m VALUES (151, 'before')"),
            List.of("CREATE TABLE public.tk_m_3 PARTITION OF public.tk_m FOR VALUES FROM (200) TO (300)"),
            List.of("INSERT INTO tk_m SELECT g, 'c' || g FROM generate_series(200, 219) g", "UPDATE tk_m SET v = 'u' WHERE id = 201",
                    "DELETE FROM tk_m WHERE id = 202"));

    static final Round ATTACHED = Round.followed("table with rows attached", Kill.AFTER_COMMIT,
            List.of("INSERT INTO tk_m VALUES (152, 'before the attach')", "UPDATE tk_m SET v = 'b' WHERE id = 203"),
            List.of("ALTER TABLE public.tk_m ATTACH PARTITION public.tk_m_old FOR VALUES FROM (300) TO (400)"),
            List.of("INSERT INTO tk_m VALUES (320, 'after the attach')", "UPDATE tk_m SET v = 'a' WHERE id = 204"))
            .stops(3, "tidemark: capture stopped: table public.tk_m_old was attached to captured table public.tk_m while capture ran, "
                    + "with rows capture never saw: run `tidemark snapshot --config FILE --table public.tk_m` (it reads public.tk_m "
                    + "again, the attached rows with it)");

    static final Round DETACHED = Round.followed("partition detached", Kill.AFTER_COMMIT,
            List.of("UPDATE tk_m SET v = 'before the detach' WHERE id BETWEEN 5 AND 9", "INSERT INTO tk_m VALUES (153, 'b')"),
            List.of("ALTER TABLE public.tk_m DETACH PARTITION public.tk_m_1"),
            List.of("INSERT INTO tk_m VALUES (154, 'after the detach')", "UPDATE tk_m SET v = 'd' WHERE id = 120"))
            .stops(3, "tidemark: capture stopped: partition public.tk_m_1 left captured table public.tk_m while capture ran (detached "
                    + "or dropped), and the target still holds the rows it took along: run `tidemark snapshot --config FILE --table "
                    + "public.tk_m` (it reads public.tk_m again and removes the rows the source no longer holds)");

    static final Round PARTITION_TRUNCATED = Round.followed("one partition truncated", Kill.AFTER_COMMIT,
            List.of("INSERT INTO tk_m VALUES (155, 'before the truncate')", "UPDATE tk_m SET v = 't' WHERE id = 110"),
            List.of("TRUNCATE tk_m_2"),
            List.of("INSERT INTO tk_m VALUES (156, 'after the truncate')", "UPDATE tk_m SET v = 'a' WHERE id = 205"))
            .stops(3, "tidemark: capture stopped: partition public.tk_m_2 of captured table public.tk_m was truncated at the source, and "
                    + "PostgreSQL publishes no TRUNCATE of one partition, so the target still holds its rows: run `tidemark snapshot "
                    + "--config FILE --table public.tk_m` (it reads public.tk_m again and removes the rows the source no longer holds)");

    static final Round IDENTITY_DEFAULT = identity("DEFAULT",
            List.of("UPDATE tk_ident SET id = id + 2000 WHERE id = 12", "UPDATE tk_ident SET balance = 7 WHERE id = 13"),
            List.of("UPDATE tk_ident SET balance = balance + 100 WHERE id <= 5", "UPDATE tk_ident SET id = id + 1000 WHERE id = 6",
                    "DELETE FROM tk_ident WHERE id = 7"));

    static final Round IDENTITY_NOTHING = identity("NOTHING", List.of("UPDATE tk_ident SET balance = 8 WHERE id = 14"),
            List.of("INSERT INTO tk_ident VALUES (600, 'c600', 6, 'inserted under NOTHING')"));

    /** {@code tk_ident}'s replica identity set to {@code identity} while streaming: the stop naming the one-table snapshot. */
    private static Round identity(String identity, List<String> before, List<String> after) {
        return Round.followed("REPLICA IDENTITY " + identity, Kill.AFTER_COMMIT, before,
                List.of("ALTER TABLE tk_ident REPLICA IDENTITY " + identity), after)
                .stops(3, "tidemark: capture stopped: table public.tk_ident has REPLICA IDENTITY " + identity + " instead of FULL "
                        + "while capture runs, so an update of its primary key can lose unchanged TOASTed values in the target: copy "
                        + "the table again with `tidemark snapshot --config FILE --table public.tk_ident` (taken at the next start of "
                        + "capture, which sets REPLICA IDENTITY FULL back; the snapshot rewrites the table's rows and removes the "
                        + "target rows the source no longer holds)");
    }

    /** The table added while stopped, killed again during its incremental snapshot. */
    static Round added(List<TableId> captured) {
        return added(captured, Kill.DURING_ADDED_SNAPSHOT, ADDED);
    }

    /**
     * A table added while stopped ({@value #ADDED_ROWS} rows, one more inserted while stopped), with {@code kill}
     * saying whether it is killed again during its snapshot.
     */
    static Round added(List<TableId> captured, Kill kill, TableId table) {
        String name = table.table();
        return Round.followed("table " + name + " added while stopped", kill,
                List.of("UPDATE tk_other SET note = 'while stopped' WHERE id % 9 = 0"),
                List.of("CREATE TABLE public." + name + " (id int PRIMARY KEY, note text, pad text)",
                        "INSERT INTO " + name + " SELECT g, 'a' || g, repeat('p', 200) FROM generate_series(1, " + ADDED_ROWS + ") g"),
                List.of("INSERT INTO " + name + " VALUES (" + (ADDED_ROWS + 1) + ", 'while stopped', '')")).capturing(with(captured, table));
    }

    /**
     * The stress form of the kill during an added table's incremental snapshot: {@code n} rounds, each adding a table
     * of its own ({@code tk_added_1} …) and killing {@code tidemark run} once its snapshot is under way.
     */
    static List<Round> addedKills(List<TableId> initial, int n) {
        List<Round> rounds = new ArrayList<>();
        List<TableId> captured = initial;
        for (int i = 1; i <= n; i++) {
            Round r = added(captured, Kill.DURING_ADDED_SNAPSHOT, table("tk_added_" + i));
            rounds.add(r);
            captured = r.tables();
        }
        return List.copyOf(rounds);
    }

    static Round removed(List<TableId> captured) {
        return Round.followed("table removed while stopped", Kill.WHILE_STOPPED,
                List.of("INSERT INTO tk_trunc VALUES (501, 'uncaptured: written while capture was stopped, before the removal')"), List.of(),
                List.of("INSERT INTO tk_trunc VALUES (502, 'uncaptured after the removal')", "UPDATE tk_other SET note = 'r' WHERE id = 3"))
                .capturing(captured.stream().filter(t -> !t.equals(TRUNC)).toList());
    }

    static Round unlogged(List<TableId> captured) {
        return Round.followed("UNLOGGED table added", Kill.WHILE_STOPPED, List.of(),
                List.of("CREATE UNLOGGED TABLE public.tk_scratch (id int PRIMARY KEY, note text)",
                        "INSERT INTO tk_scratch SELECT g, 's' || g FROM generate_series(1, 50) g"),
                List.of()).capturing(with(captured, SCRATCH))
                .stops(2, "tidemark: table public.tk_scratch is UNLOGGED, so its changes are not in the WAL and capture would never see "
                        + "one: run ALTER TABLE \"public\".\"tk_scratch\" SET LOGGED or remove public.tk_scratch from source.tables");
    }

    /**
     * The short form: into SQLite, a followed round of each kind and three stops recovered by the one-table snapshot
     * (the detach among them: capture resumes from before the changes of the detached rows, and the snapshot's sweep,
     * ordered after them, removes those rows), and the table added while stopped, killed again during its
     * incremental snapshot.
     */
    static List<Round> shortForm(List<TableId> initial) {
        return List.of(RECREATED, PARTITION_CREATED, added(initial), PARTITION_TRUNCATED, DETACHED, IDENTITY_DEFAULT);
    }

    /** Every case of docs/schema-changes.md's topology tables, one after another. */
    static List<Round> longForm(List<TableId> initial) {
        List<TableId> withAdded = with(initial, ADDED);
        return List.of(RECREATED, TRUNCATED, PARTITION_CREATED, ATTACHED, PARTITION_TRUNCATED, DETACHED, IDENTITY_DEFAULT,
                IDENTITY_NOTHING, added(initial), removed(withAdded), unlogged(removed(withAdded).tables()));
    }

    static List<TableId> with(List<TableId> tables, TableId more) {
        List<TableId> out = new ArrayList<>(tables);
        out.add(more);
        return List.copyOf(out);
    }

    private static TableId table(String name) {
        return new TableId("public", name);
    }
}
