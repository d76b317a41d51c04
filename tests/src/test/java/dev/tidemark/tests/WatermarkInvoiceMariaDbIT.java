package dev.tidemark.tests;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;

/**
 * The Invoice demonstration with a MariaDB source ({@code DATETIME}, {@code DECIMAL(10,2)}, {@code BOOLEAN}), on the
 * machine's MariaDB at 127.0.0.1:3306 (root, no password) in a database of its own, dropped afterwards.
 */
class WatermarkInvoiceMariaDbIT extends WatermarkInvoiceScenario {
    static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    private final String database = "wm_invoice_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;

    @Override
    String sourceUrl() throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        return SERVER + database;
    }

    @Override
    void dropSource() throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER, "root", ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    @Override
    String sourceUser() {
        return "root";
    }

    @Override
    String sourcePassword() {
        return "";
    }

    @Override
    TableId table(String name) {
        return new TableId(database, name);
    }

    @Override
    String ddl(String name, boolean softDelete) {
        return "CREATE TABLE `" + name + "` (InvoiceId INT NOT NULL PRIMARY KEY, CustomerId INT NOT NULL, "
                + "InvoiceDate DATETIME NOT NULL, BillingAddress VARCHAR(70), BillingCity VARCHAR(40), BillingState VARCHAR(40), "
                + "BillingCountry VARCHAR(40), BillingPostalCode VARCHAR(10), Total DECIMAL(10,2) NOT NULL, "
                + "LastModified DATETIME NOT NULL" + (softDelete ? ", IsDeleted BOOLEAN NOT NULL DEFAULT false" : "")
                + ") CHARACTER SET utf8mb4";
    }

    @Override
    void bindTimestamp(PreparedStatement ps, int index, LocalDateTime t) throws SQLException {
        ps.setObject(index, t);
    }

    @Override
    String q(String identifier) {
        return "`" + identifier + "`";
    }
}
