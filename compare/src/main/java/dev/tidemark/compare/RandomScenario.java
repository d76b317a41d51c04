package dev.tidemark.compare;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * A seeded scenario for property tests: {@value #ROWS} invoices stamped from 2021-03-01 on, 3–5 runs, and before each
 * run after the first a mix of inserts, updates that stamp the cursor, updates that do not, hard deletes, backdated
 * inserts, inserts exactly at the stored watermark and long transactions.
 *
 * <p>The generator keeps a model of the committed rows and of the watermark each run stores (the largest committed
 * {@code LastModified}, never moving down), so every step's intent is true by construction: a backdated row lies
 * strictly below the previous run's watermark, a boundary row exactly at it, and a long transaction's stamp lies
 * below a row committed after it in the same period, so the run between them reads past the stamp before the
 * transaction commits. Rows a long transaction holds are left alone by the other steps until it commits. Keys are
 * never reused after a delete. Timestamps lie years in the past, so the watermark's settle delay never lowers a
 * bound.
 */
public final class RandomScenario implements Scenario {
    public static final int ROWS = 200;
    static final LocalDateTime BASE = LocalDateTime.of(2021, 3, 1, 0, 0);

    private final long seed;
    private final int runs;
    private final List<InvoiceRow> initial;
    private final Map<Integer, List<ScenarioStep>> steps = new TreeMap<>();

    public RandomScenario(long seed) {
        this.seed = seed;
        Generator g = new Generator(new Random(seed));
        this.runs = 3 + g.random.nextInt(3);
        this.initial = g.initialRows();
        for (int run = 2; run <= runs; run++) {
            steps.put(run, g.period(run < runs));
        }
    }

    @Override
    public String name() {
        return "random";
    }

    @Override
    public Optional<Long> seed() {
        return Optional.of(seed);
    }

    @Override
    public String describe() {
        int changes = steps.values().stream().mapToInt(List::size).sum();
        return "random scenario, seed " + seed + ": Invoice table, " + ROWS + " rows from " + BASE.toLocalDate() + ", "
                + runs + " runs, " + changes + " steps";
    }

    @Override
    public List<InvoiceRow> initialRows() {
        return initial;
    }

    @Override
    public int runs() {
        return runs;
    }

    @Override
    public List<ScenarioStep> stepsBefore(int run) {
        return steps.getOrDefault(run, List.of());
    }

    /** The model the steps are drawn from; one per scenario. */
    private static final class Generator {
        final Random random;
        /** Committed rows by key (a long transaction's writes join them when it commits, after the run). */
        final Map<Long, InvoiceRow> committed = new LinkedHashMap<>();
        LocalDateTime clock = BASE;
        long nextId = 1;
        long nextCent = 1;
        /** The watermark the last run stored. */
        LocalDateTime watermark;

        Generator(Random random) {
            this.random = random;
        }

        List<InvoiceRow> initialRows() {
            List<InvoiceRow> rows = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                if (i == 0 || random.nextInt(8) != 0) {
                    clock = clock.plusMinutes(1 + random.nextInt(30)); // else: the same stamp as the row before (ties)
                }
                InvoiceRow r = newRow(clock);
                rows.add(r);
                committed.put(r.invoiceId(), r);
            }
            watermark = clock; // run 1 reads everything
            return List.copyOf(rows);
        }

        /**
         * The steps before one run, then the model advanced past that run: the watermark it stores, and any long
         * transaction committed after it.
         */
        List<ScenarioStep> period(boolean laterRunFollows) {
            List<ScenarioStep> out = new ArrayList<>();
            Set<Long> held = new HashSet<>(); // rows a long transaction of this period holds
            Map<Long, InvoiceRow> commitAfterRun = new LinkedHashMap<>();
            boolean stampToReadPast = false;
            int n = 4 + random.nextInt(9);
            for (int i = 0; i < n; i++) {
                int pick = random.nextInt(100);
                Long key = pickKey(held);
                boolean longTransaction = laterRunFollows && commitAfterRun.isEmpty();
                ScenarioStep step = step(pick, key, longTransaction ? held : null, commitAfterRun);
                out.add(step);
                if (step instanceof ScenarioStep.LongTransaction) {
                    stampToReadPast = true;
                } else if (step instanceof ScenarioStep.Insert || step instanceof ScenarioStep.Update u && u.lastModified() != null) {
                    stampToReadPast = false; // a later stamp, committed after the long transaction
                }
            }
            if (stampToReadPast) {
                // The run must read past the long transaction's stamp: commit a later-stamped row after it.
                out.add(new ScenarioStep.Insert(put(newRow(tick()))));
            }
            LocalDateTime max = committed.values().stream().map(InvoiceRow::lastModified).max(LocalDateTime::compareTo).orElse(watermark);
            if (max.isAfter(watermark)) {
                watermark = max; // the run stores MAX(LastModified) of the committed rows; it never moves down
            }
            committed.putAll(commitAfterRun); // the long transaction commits after the run
            return List.copyOf(out);
        }

        /**
         * One step drawn by {@code pick} (0–99) on {@code key} (null: no committed key is free, so an insert). A long
         * transaction only when {@code held} is given (a later run follows and none is open yet this period).
         */
        private ScenarioStep step(int pick, Long key, Set<Long> held, Map<Long, InvoiceRow> commitAfterRun) {
            if (pick < 25 || key == null) {
                return new ScenarioStep.Insert(put(newRow(tick())));
            } else if (pick < 45) {
                LocalDateTime t = tick();
                InvoiceRow r = put(committed.get(key).withTotal(changed(committed.get(key).total())).withLastModified(t));
                return new ScenarioStep.Update(key, r.total(), t);
            } else if (pick < 58) {
                InvoiceRow r = put(committed.get(key).withTotal(changed(committed.get(key).total())));
                return new ScenarioStep.Update(key, r.total(), null);
            } else if (pick < 68) {
                committed.remove(key);
                return new ScenarioStep.Delete(key);
            } else if (pick < 78) {
                LocalDateTime t = watermark.minusMinutes(1 + random.nextInt(60 * 24 * 30));
                return new ScenarioStep.BackdatedInsert(put(newRow(t)));
            } else if (pick < 88) {
                return new ScenarioStep.EqualTimestampBoundary(put(newRow(watermark)));
            } else if (held != null) {
                return longTransaction(held, commitAfterRun);
            }
            return new ScenarioStep.Insert(put(newRow(tick())));
        }

        /** 1–3 writes at one stamp, on new rows or free committed ones; they join the model when it commits, after the run. */
        private ScenarioStep.LongTransaction longTransaction(Set<Long> held, Map<Long, InvoiceRow> commitAfterRun) {
            LocalDateTime stamp = tick();
            List<ScenarioStep> writes = new ArrayList<>();
            for (int w = 1 + random.nextInt(3); w > 0; w--) {
                Long k = pickKey(held);
                if (k == null || random.nextBoolean()) {
                    InvoiceRow r = newRow(stamp);
                    writes.add(new ScenarioStep.Insert(r));
                    commitAfterRun.put(r.invoiceId(), r);
                    held.add(r.invoiceId());
                } else {
                    InvoiceRow r = committed.get(k).withTotal(changed(committed.get(k).total())).withLastModified(stamp);
                    writes.add(new ScenarioStep.Update(k, r.total(), stamp));
                    commitAfterRun.put(k, r);
                    held.add(k);
                }
            }
            return new ScenarioStep.LongTransaction(writes);
        }

        private InvoiceRow put(InvoiceRow r) {
            committed.put(r.invoiceId(), r);
            return r;
        }

        /** A random committed key no long transaction of this period holds, or null if there is none. */
        private Long pickKey(Set<Long> held) {
            List<Long> keys = new ArrayList<>(committed.keySet());
            keys.removeAll(held);
            if (keys.isEmpty()) {
                return null;
            }
            Collections.sort(keys);
            return keys.get(random.nextInt(keys.size()));
        }

        private LocalDateTime tick() {
            clock = clock.plusMinutes(1 + random.nextInt(30));
            return clock;
        }

        private InvoiceRow newRow(LocalDateTime stamp) {
            long id = nextId++;
            return new InvoiceRow(id, 1 + random.nextInt(59), stamp.toLocalDate().atStartOfDay(),
                    id % 2 == 0 ? "São Paulo" : "Oslo", id % 2 == 0 ? "Brazil" : "Norway", cents(), stamp);
        }

        private BigDecimal cents() {
            return BigDecimal.valueOf(nextCent++ * 7919 % 250_000 + 99, 2);
        }

        /** A total that differs from {@code old}, so every update changes the row's checksum. */
        private BigDecimal changed(BigDecimal old) {
            return old.add(BigDecimal.valueOf(1 + random.nextInt(500), 2));
        }
    }
}
