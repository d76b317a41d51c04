package dev.tidemark.connect;

import java.sql.Driver;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Registers the JDBC drivers packed in the plugin with {@link java.sql.DriverManager}. Connect loads each plugin
 * through its own class loader, and {@code DriverManager} finds drivers only once, through whichever class loader
 * first used it (the worker's, or another plugin's, such as Debezium's with its own PostgreSQL driver); it then hands
 * a connection only to callers whose class loader sees the same driver class, so without this the task fails with
 * "No suitable driver". Instantiating each driver of this plugin's {@code META-INF/services/java.sql.Driver} runs its
 * static initialiser, which registers it. Idempotent per class loader.
 */
final class PluginDrivers {
    private PluginDrivers() {
    }

    /** Registers the drivers visible to the plugin's class loader; returns their class names. */
    static synchronized List<String> register() {
        List<String> names = new ArrayList<>();
        ServiceLoader<Driver> drivers = ServiceLoader.load(Driver.class, PluginDrivers.class.getClassLoader());
        var it = drivers.iterator();
        while (it.hasNext()) {
            try {
                names.add(it.next().getClass().getName());
            } catch (ServiceConfigurationError e) {
                // a driver that cannot load is not one of ours to use; the connection attempt names the URL
            }
        }
        return names;
    }
}
