package dev.tidemark.tests;

import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.watermark.WatermarkConfig;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Opens direct-mode watermark jobs into SQLite target files, and reads keys back. */
final class WatermarkJobs {
    private WatermarkJobs() {
    }

    static WatermarkJob direct(String sourceUrl, String user, String password, Path targetFile, WatermarkTable... tables)
            throws SQLException {
        return WatermarkJob.open(new WatermarkConfig("wm-it",
                new WatermarkConfig.Endpoint(sourceUrl, user, Secret.of(password)),
                new WatermarkConfig.Endpoint("jdbc:sqlite:" + targetFile, null, null), null, null, List.of(tables), null), null);
    }

    /** The integer keys of a SQLite target table. */
    static Set<Long> keys(Path targetFile, String table, String keyColumn) throws SQLException {
        Set<Long> out = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + targetFile); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"" + keyColumn + "\" FROM \"" + table + "\"")) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    /** One text value from a SQLite file. */
    static String text(Path file, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
