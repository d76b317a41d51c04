package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.Messages;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.jdbc.SqlFailures;


import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.Test;

class SqlFailuresTest {

    private static Failure pg(String state) {
        return SqlFailures.classify(new SQLException("ERROR: something", state));
    }

    private static Failure maria(String state, int code) {
        return SqlFailures.classify(new SQLException("(conn=1) something", state, code));
    }

    private static Failure sqlite(String name, int code) {
        return SqlFailures.classify(new SQLException("[" + name + "] something (detail)", null, code));
    }

    private static Failure fault(Failure.Cause cause) {
        return new Failure.Fault(cause);
    }

    @Test
    void connectionLossRestartsDeadlocksAndBusyFilesAreTransient() {
        for (String state : new String[] {"08006", "08001", "57P01", "57P03", "40001", "40P01", "53300", "55P03"}) {
            assertThat(pg(state)).as(state).isInstanceOf(Failure.Transient.class);
        }
        assertThat(maria("40001", 1213)).isInstanceOf(Failure.Transient.class);
        assertThat(maria("HY000", 1205)).isInstanceOf(Failure.Transient.class);
        assertThat(maria("08000", 1040)).isInstanceOf(Failure.Transient.class);
        assertThat(SqlFailures.classify(new SQLNonTransientConnectionException("socket closed", "08000", 2013))).isInstanceOf(Failure.Transient.class);
        assertThat(sqlite("SQLITE_BUSY", 5)).isInstanceOf(Failure.Transient.class);
        assertThat(sqlite("SQLITE_LOCKED", 6)).isInstanceOf(Failure.Transient.class);
        assertThat(SqlFailures.classify(new RuntimeException("wrapped", new IOException("broken pipe")))).isInstanceOf(Failure.Transient.class);
    }

    @Test
    void aRowBreakingAConstraintOrDataRuleIsRejectedAsPoison() {
        for (String state : new String[] {"23505", "23514", "23502", "23503", "22001", "22003", "22P02", "22007"}) {
            assertThat(pg(state)).as(state).isInstanceOf(Failure.RowRejected.class);
        }
        assertThat(maria("23000", 1062)).isInstanceOf(Failure.RowRejected.class);
        assertThat(maria("23000", 4025)).isInstanceOf(Failure.RowRejected.class);
        assertThat(maria("22001", 1406)).isInstanceOf(Failure.RowRejected.class);
        assertThat(maria("HY000", 1366)).isInstanceOf(Failure.RowRejected.class);
        assertThat(maria("HY000", 3819)).isInstanceOf(Failure.RowRejected.class);
        assertThat(sqlite("SQLITE_CONSTRAINT_CHECK", 19)).isInstanceOf(Failure.RowRejected.class);
        assertThat(sqlite("SQLITE_CONSTRAINT_UNIQUE", 19)).isInstanceOf(Failure.RowRejected.class);
        assertThat(sqlite("SQLITE_MISMATCH", 20)).isInstanceOf(Failure.RowRejected.class);
    }

    @Test
    void missingPrivilegesAreFaultsNeverPoison() {
        assertThat(pg("42501")).isEqualTo(fault(Failure.Cause.PRIVILEGE));
        for (int code : new int[] {1142, 1143, 1044}) {
            assertThat(maria("42000", code)).as("MariaDB " + code).isEqualTo(fault(Failure.Cause.PRIVILEGE));
        }
        assertThat(sqlite("SQLITE_READONLY", 8)).isEqualTo(fault(Failure.Cause.PRIVILEGE));
        assertThat(sqlite("SQLITE_PERM", 3)).isEqualTo(fault(Failure.Cause.PRIVILEGE));
    }

    @Test
    void missingTablesAndColumnsAreFaults() {
        assertThat(pg("42P01")).isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
        assertThat(pg("42703")).isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
        assertThat(maria("42S02", 1146)).isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
        assertThat(maria("42S22", 1054)).isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
        assertThat(SqlFailures.classify(new SQLException("[SQLITE_ERROR] SQL error or missing database (no such table: items)", null, 1)))
                .isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
    }

    @Test
    void diskFullAndOutOfResourcesAreFaults() {
        assertThat(pg("53100")).isEqualTo(fault(Failure.Cause.OUT_OF_RESOURCES));
        assertThat(pg("53200")).isEqualTo(fault(Failure.Cause.OUT_OF_RESOURCES));
        for (int code : new int[] {1021, 1114, 3, 1041}) {
            assertThat(maria("HY000", code)).as("MariaDB " + code).isEqualTo(fault(Failure.Cause.OUT_OF_RESOURCES));
        }
        assertThat(sqlite("SQLITE_FULL", 13)).isEqualTo(fault(Failure.Cause.OUT_OF_RESOURCES));
        assertThat(sqlite("SQLITE_IOERR_WRITE", 10)).isEqualTo(fault(Failure.Cause.OUT_OF_RESOURCES));
    }

    @Test
    void authenticationAndAnythingUnknownAreFaults() {
        assertThat(pg("28P01")).isEqualTo(fault(Failure.Cause.AUTHENTICATION));
        assertThat(maria("28000", 1045)).isEqualTo(fault(Failure.Cause.AUTHENTICATION));
        assertThat(pg("42P07")).as("relation already exists").isEqualTo(fault(Failure.Cause.OTHER));
        assertThat(pg("XX000")).isEqualTo(fault(Failure.Cause.OTHER));
        assertThat(maria("42000", 1071)).as("key too long").isEqualTo(fault(Failure.Cause.OTHER));
        assertThat(SqlFailures.classify(new IllegalStateException("a bug"))).isEqualTo(fault(Failure.Cause.OTHER));
    }

    @Test
    void aSinkExceptionKeepsItsOwnClassificationThroughWrappers() {
        SinkException dropped = TargetTables.dropped("items", "sqlite", DroppedTableAdvice.RESTORE.wayOn("items"), null);
        assertThat(SqlFailures.classify(new RuntimeException(dropped))).isEqualTo(fault(Failure.Cause.MISSING_OBJECT));
        assertThat(new SinkException("x", new SQLException("dup", "23505")).isRowRejected()).isTrue();
        assertThat(new SinkException("x", null).failure()).isInstanceOf(Failure.Fault.class);
    }

    @Test
    void messagesAreOneLine() {
        assertThat(Messages.oneLine(new SQLException("ERROR: relation \"x\" does not exist\n  Position: 13")))
                .isEqualTo("ERROR: relation \"x\" does not exist; Position: 13");
        assertThat(TargetTables.dropped("items", "postgresql", DroppedTableAdvice.RESTORE.wayOn("items"), null).getMessage())
                .doesNotContain("\n").contains("table items", "offsets not advanced: restore it as it was")
                .doesNotContain("--replay-from", "--config F");
        assertThat(Failure.Cause.MISSING_OBJECT.advice()).doesNotContain("--replay-from", "--config F");
    }
}
