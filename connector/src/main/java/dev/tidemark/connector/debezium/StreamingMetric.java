package dev.tidemark.connector.debezium;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Debezium's own streaming metric of the PostgreSQL connector, read from this JVM's MBean server: {@code Connected}
 * is true once the connector streams from the replication slot (after the initial snapshot).
 */
final class StreamingMetric {
    private StreamingMetric() {
    }

    /** False when the MBean is not registered (the task has not reached streaming) or cannot be read. */
    static boolean connected(String topicPrefix) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            for (ObjectName name : server.queryNames(new ObjectName("debezium.postgres:type=connector-metrics,context=streaming,*"), null)) {
                String s = name.getKeyProperty("server");
                if ((topicPrefix.equals(s) || ObjectName.quote(topicPrefix).equals(s)) && Boolean.TRUE.equals(server.getAttribute(name, "Connected"))) {
                    return true;
                }
            }
            return false;
        } catch (JMException | RuntimeException e) {
            return false;
        }
    }
}
