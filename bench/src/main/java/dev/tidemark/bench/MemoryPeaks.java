package dev.tidemark.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Peak heap and peak resident set of this JVM. Heap: the larger of (a) the used heap sampled every 5 ms and (b) the
 * used heap just before each garbage collection, from the collectors' notifications — so the peak between two samples
 * is not missed. RSS: the kernel's high-water mark {@code VmHWM} from {@code /proc/self/status} (whole process,
 * JVM start-up included).
 */
final class MemoryPeaks implements AutoCloseable {
    private final AtomicLong peakHeap = new AtomicLong();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final NotificationListener listener = (n, handback) -> {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            long before = 0;
            for (var e : info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
                if (heapPools.contains(e.getKey())) {
                    before += e.getValue().getUsed();
                }
            }
            peakHeap.accumulateAndGet(before, Math::max);
        }
    };
    private final Thread sampler;
    private volatile boolean running = true;

    MemoryPeaks() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
            }
        }
        sampler = new Thread(() -> {
            while (running) {
                MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                peakHeap.accumulateAndGet(heap.getUsed(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    long peakHeapBytes() {
        return peakHeap.get();
    }

    /** {@code VmHWM} of this process in bytes, or -1 where {@code /proc} has none. */
    static long peakRssBytes() {
        return peakRssBytes("self");
    }

    /** {@code VmHWM} of process {@code pid} ("self" for this one) in bytes, or -1 where {@code /proc} has none. */
    static long peakRssBytes(String pid) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc", pid, "status"));
            for (String line : lines) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                try {
                    emitter.removeNotificationListener(listener);
                } catch (javax.management.ListenerNotFoundException ignored) {
                    // never added
                }
            }
        }
    }
}
