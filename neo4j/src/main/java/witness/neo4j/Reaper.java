package witness.neo4j;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.NotificationEmitter;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.internal.kernel.api.connectioninfo.ClientConnectionInfo;
import org.neo4j.kernel.api.KernelTransactionHandle;
import org.neo4j.kernel.api.net.NetworkConnectionTracker;
import org.neo4j.kernel.api.net.TrackedNetworkConnection;
import org.neo4j.kernel.impl.api.KernelTransactions;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Stops queries Neo4j cannot stop itself, and closes their Bolt connections so their clients are not
 * left waiting for an answer that will never come:
 *
 * <ul>
 *   <li>a query whose transaction was marked for termination (timed out, client gone) more than
 *       {@code afterMs} ago and still runs: Neo4j checks the mark only when a query touches the store,
 *       so a pure computation ({@code UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y
 *       RETURN count(*)}) would keep a core busy long after its client gave up;</li>
 *   <li>when the old generation is still over 80% full after a collection, the query allocating the
 *       most right then: values built in expressions ({@code [x IN range(1, 10^7) | toString(x)]}) are
 *       not counted by Neo4j's transaction memory limits, and a full heap fails innocent queries and
 *       Neo4j's own threads.</li>
 * </ul>
 *
 * <p>Threads are stopped with Thread.stop (Java 17–19; later Java versions only report the query).
 */
final class Reaper {
    private static final double HEAP_THRESHOLD = 0.8;
    private static final long SAMPLE_MS = 200;
    /** Bytes a thread must allocate within SAMPLE_MS to be taken for the one filling the heap. */
    private static final long HEAVY_ALLOCATION = 8L << 20;
    /** Time for Netty to close a connection before the thread serving it is stopped. */
    private static final long CLOSE_BEFORE_STOP_MS = 100;

    private final DatabaseManagementService dbms;
    private final long afterMs;
    /** When each transaction was first seen marked for termination (by database and sequence number). */
    private final Map<String, Long> marked = new HashMap<>();
    /** Transactions already reaped (never twice: their thread may serve others by now). */
    private final Set<String> reaped = new HashSet<>();
    private final AtomicLong lastHeapAction = new AtomicLong();
    private boolean unsupportedReported;

    Reaper(DatabaseManagementService dbms, long afterMs) {
        this.dbms = dbms;
        this.afterMs = afterMs;
    }

    /** Reaps transactions terminated more than afterMs ago and still running; call periodically. */
    synchronized void run() {
        if (afterMs <= 0) return;
        try {
            long now = System.currentTimeMillis();
            Map<String, Long> seen = new HashMap<>();
            for (Map.Entry<String, KernelTransactionHandle> entry : activeTransactions().entrySet()) {
                KernelTransactionHandle handle = entry.getValue();
                if (handle.terminationMark().isEmpty() || handle.isClosing()) continue;
                long since = marked.getOrDefault(entry.getKey(), now);
                seen.put(entry.getKey(), since);
                if (now - since >= afterMs) reap(entry.getKey(), handle, "still running after its transaction was terminated");
            }
            marked.clear();
            marked.putAll(seen);
            reaped.retainAll(activeTransactions().keySet());
        } catch (Throwable error) {
            System.err.println("reaper: " + Launcher.oneLine(error));
        }
    }

    /** Listens for the old generation staying over HEAP_THRESHOLD after a collection. */
    void watchHeap() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP || !pool.isCollectionUsageThresholdSupported() || pool.getUsage().getMax() <= 0) continue;
            pool.setCollectionUsageThreshold((long) (pool.getUsage().getMax() * HEAP_THRESHOLD));
        }
        NotificationEmitter emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
        emitter.addNotificationListener((notification, handback) -> {
            if (!MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED.equals(notification.getType())) return;
            long now = System.currentTimeMillis();
            long last = lastHeapAction.get();
            if (now - last < 1000 || !lastHeapAction.compareAndSet(last, now)) return;
            Thread worker = new Thread(this::stopHeaviestAllocator, "witness-neo4j-heap");
            worker.setDaemon(true);
            worker.start();
        }, null, null);
    }

    /** Samples how much each running query's thread allocates and reaps the one allocating the most, if it allocates a lot. */
    private void stopHeaviestAllocator() {
        try {
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            Map<String, KernelTransactionHandle> running = activeTransactions();
            Map<String, Thread> threadOf = new HashMap<>();
            Map<String, Long> before = new HashMap<>();
            for (Map.Entry<String, KernelTransactionHandle> entry : running.entrySet()) {
                Optional<Thread> thread = threadOf(entry.getValue(), connectionOf(entry.getValue()));
                if (thread.isEmpty()) continue;
                threadOf.put(entry.getKey(), thread.get());
                before.put(entry.getKey(), threads.getThreadAllocatedBytes(thread.get().getId()));
            }
            Thread.sleep(SAMPLE_MS);
            String heaviest = null;
            long most = HEAVY_ALLOCATION;
            for (Map.Entry<String, Thread> entry : threadOf.entrySet()) {
                long allocated = threads.getThreadAllocatedBytes(entry.getValue().getId()) - before.get(entry.getKey());
                if (allocated > most) {
                    most = allocated;
                    heaviest = entry.getKey();
                }
            }
            if (heaviest != null) {
                synchronized (this) {
                    reap(heaviest, running.get(heaviest), "filling the heap (" + (most >> 20) + " MB in " + SAMPLE_MS + " ms)");
                }
            }
        } catch (Throwable error) {
            System.err.println("reaper: " + Launcher.oneLine(error));
        }
    }

    private Map<String, KernelTransactionHandle> activeTransactions() {
        Map<String, KernelTransactionHandle> all = new HashMap<>();
        for (String name : dbms.listDatabases()) {
            GraphDatabaseAPI db = (GraphDatabaseAPI) dbms.database(name);
            if (!db.isAvailable()) continue;
            KernelTransactions transactions = db.getDependencyResolver().resolveDependency(KernelTransactions.class);
            for (KernelTransactionHandle handle : transactions.activeTransactions()) all.put(name + "/" + handle.getTransactionSequenceNumber(), handle);
        }
        return all;
    }

    /** The Bolt connection a transaction came in on, as Neo4j tracks it, or null. */
    private TrackedNetworkConnection connectionOf(KernelTransactionHandle handle) {
        String id = handle.clientInfo().map(ClientConnectionInfo::connectionId).orElse(null);
        if (id == null) return null;
        GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        return system.getDependencyResolver().resolveDependency(NetworkConnectionTracker.class).get(id);
    }

    /**
     * The thread running the transaction's query: the one named at the query's start, and only while
     * Bolt still names it after the transaction's connection (a pooled worker may serve another
     * connection by now, and must never be stopped for this one).
     */
    private Optional<Thread> threadOf(KernelTransactionHandle handle, TrackedNetworkConnection connection) {
        if (connection == null) return Optional.empty();
        String tag = "[" + connection.id() + " ";
        return handle.executingQuery().flatMap(query -> threadNamed(query.threadExecutingTheQueryName())).filter(t -> t.getName().contains(tag));
    }

    /**
     * Marks the transaction terminated and closes its connection, so nothing the thread might still
     * send reaches its client (a stopped query can end as if it had succeeded, with rows missing);
     * then stops the thread if it still serves that connection.
     */
    private void reap(String key, KernelTransactionHandle handle, String why) {
        if (!reaped.add(key)) return;
        TrackedNetworkConnection connection = connectionOf(handle);
        if (connection == null) {
            System.err.println("reaper: no connection found for a query " + why + "; left running");
            return;
        }
        Optional<Thread> thread = threadOf(handle, connection);
        handle.markForTermination(org.neo4j.kernel.api.exceptions.Status.Transaction.Terminated);
        connection.close();
        if (thread.isEmpty()) return;
        try {
            Thread.sleep(CLOSE_BEFORE_STOP_MS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!thread.get().getName().contains("[" + connection.id() + " ")) return;
        System.err.println("reaper: stopping " + thread.get().getName() + ", " + why);
        stop(thread.get());
    }

    /** The one live thread with this name (Bolt names its worker after the connection it serves), if unique. */
    private static Optional<Thread> threadNamed(String name) {
        List<Thread> matches = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).toList();
        return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
    }

    @SuppressWarnings({"deprecation", "removal"})
    private void stop(Thread thread) {
        try {
            thread.stop();
        } catch (UnsupportedOperationException noThreadStop) {
            if (!unsupportedReported) System.err.println("reaper: this Java cannot stop threads; such queries run to their end");
            unsupportedReported = true;
        }
    }
}
