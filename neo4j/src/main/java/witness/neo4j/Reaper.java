package witness.neo4j;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
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
import org.neo4j.kernel.api.query.ExecutingQuery;
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
 *   <li>when the old generation is still over 80% full after a collection, the running query that
 *       has used the most memory, if that is at least an eighth of the heap: values built in
 *       expressions ({@code [x IN range(1, 10^7) | toString(x)]}) are not counted by Neo4j's
 *       transaction memory limit, and a full heap fails innocent queries and Neo4j's own threads.</li>
 * </ul>
 *
 * <p>What a query used is measured on the query itself, never on a time window of a thread: the
 * bytes its threads allocated while serving it (sampled every {@link #SAMPLE_MS} ms while it runs),
 * or what Neo4j counts for its transaction, whichever is larger. A query that used less than the
 * floor is never chosen, however full the heap, so a small query's fate never depends on its
 * neighbours. Every action is checked against the query still running on the same connection (Neo4j
 * reuses transaction objects and Bolt reuses worker threads).
 *
 * <p>Threads are stopped with Thread.stop (Java 17–19; later Java versions only get the connection
 * closed).
 */
final class Reaper {
    private static final double HEAP_THRESHOLD = 0.8;
    /** How often running queries' allocations are sampled. */
    static final long SAMPLE_MS = 200;
    /** Time for Netty to close a connection before the thread serving it is stopped. */
    private static final long CLOSE_BEFORE_STOP_MS = 100;

    private final DatabaseManagementService dbms;
    private final long afterMs;
    /** A query must have used at least this much memory to be stopped for filling the heap. */
    private final long floorBytes;
    private final com.sun.management.ThreadMXBean threadBean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** When each transaction was first seen marked for termination (by database and sequence number). */
    private final Map<String, Long> marked = new HashMap<>();
    /** Queries already reaped (never twice). */
    private final Set<String> reaped = new HashSet<>();
    /** What each running query's threads allocated while serving it, by query key. */
    private final Map<String, Usage> usage = new HashMap<>();
    private final AtomicLong lastHeapAction = new AtomicLong();
    private boolean unsupportedReported;

    /** A running query: its transaction, the query object, its connection and the thread serving it now (if any). */
    private record Running(String key, String txKey, KernelTransactionHandle handle, ExecutingQuery query, String connectionId, Thread thread) {}

    /** Bytes allocated for one query: the total so far, and the thread counter at the last sample. */
    private static final class Usage {
        long threadId;
        long lastCounter;
        long total;
    }

    Reaper(DatabaseManagementService dbms, long afterMs, long maxHeapBytes) {
        this.dbms = dbms;
        this.afterMs = afterMs;
        this.floorBytes = Math.max(16L << 20, maxHeapBytes / 8);
    }

    /** Samples allocations and reaps transactions terminated more than afterMs ago and still running; call every SAMPLE_MS. */
    synchronized void run() {
        try {
            List<Running> running = running();
            sample(running);
            if (afterMs <= 0) return;
            long now = System.currentTimeMillis();
            Map<String, Long> seen = new HashMap<>();
            for (Running query : running) {
                if (query.handle().terminationMark().isEmpty()) continue;
                long since = marked.getOrDefault(query.txKey(), now);
                seen.put(query.txKey(), since);
                if (now - since >= afterMs) reap(query, "still running after its transaction was terminated");
            }
            marked.clear();
            marked.putAll(seen);
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
            if (now - last < 500 || !lastHeapAction.compareAndSet(last, now)) return;
            Thread worker = new Thread(this::stopBiggestUser, "witness-neo4j-heap");
            worker.setDaemon(true);
            worker.start();
        }, null, null);
    }

    /** Reaps the running query that used the most memory, if it used at least the floor. */
    private synchronized void stopBiggestUser() {
        try {
            List<Running> running = running();
            sample(running);
            Running biggest = null;
            long most = floorBytes - 1;
            for (Running query : running) {
                long used = used(query);
                if (used > most) {
                    most = used;
                    biggest = query;
                }
            }
            if (biggest != null) reap(biggest, "filling the heap (it used " + (most >> 20) + " MB)");
        } catch (Throwable error) {
            System.err.println("reaper: " + Launcher.oneLine(error));
        }
    }

    /** Memory a query used: its threads' allocations while serving it, or Neo4j's count for its transaction. */
    private long used(Running query) {
        Usage u = usage.get(query.key());
        long allocated = u == null ? 0 : u.total;
        Long tracked = query.handle().transactionStatistic().getEstimatedUsedHeapMemory();
        return Math.max(allocated, tracked == null ? 0 : tracked);
    }

    /** Adds each running query's allocations since the last sample (on the thread serving it then and now). */
    private void sample(List<Running> running) {
        Map<String, Usage> next = new HashMap<>();
        for (Running query : running) {
            Usage u = usage.get(query.key());
            if (query.thread() == null) {
                if (u != null) {
                    u.threadId = -1;
                    next.put(query.key(), u);
                }
                continue;
            }
            long tid = query.thread().getId();
            long counter = threadBean.getThreadAllocatedBytes(tid);
            if (counter < 0) continue;
            if (u == null) u = new Usage();
            else if (u.threadId == tid) u.total += Math.max(0, counter - u.lastCounter);
            u.threadId = tid;
            u.lastCounter = counter;
            next.put(query.key(), u);
        }
        usage.clear();
        usage.putAll(next);
        reaped.retainAll(keysOf(running));
    }

    private static Set<String> keysOf(List<Running> running) {
        Set<String> keys = new HashSet<>();
        for (Running query : running) keys.add(query.key());
        return keys;
    }

    /** Every query running now, with the thread serving its connection (when one does). */
    private List<Running> running() {
        Map<String, Thread> byConnection = boltThreads();
        List<Running> all = new ArrayList<>();
        for (String name : dbms.listDatabases()) {
            GraphDatabaseAPI db = (GraphDatabaseAPI) dbms.database(name);
            if (!db.isAvailable()) continue;
            KernelTransactions transactions = db.getDependencyResolver().resolveDependency(KernelTransactions.class);
            for (KernelTransactionHandle handle : transactions.activeTransactions()) {
                if (!handle.isOpen() || handle.isClosing()) continue;
                Optional<ExecutingQuery> query = handle.executingQuery();
                String connectionId = handle.clientInfo().map(ClientConnectionInfo::connectionId).orElse(null);
                if (query.isEmpty() || connectionId == null) continue;
                String txKey = name + "/" + handle.getTransactionSequenceNumber();
                all.add(new Running(txKey + "/" + query.get().internalQueryId(), txKey, handle, query.get(), connectionId, byConnection.get(connectionId)));
            }
        }
        return all;
    }

    /** Bolt worker threads by the connection they serve now (Bolt names a worker after its connection: "… [bolt-12 - /127.0.0.1:5555]"). */
    private static Map<String, Thread> boltThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] threads = new Thread[root.activeCount() + 32];
        int n = root.enumerate(threads, true);
        Map<String, Thread> byConnection = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String connection = connectionOfThread(threads[i].getName());
            if (connection != null) byConnection.put(connection, threads[i]);
        }
        return byConnection;
    }

    /** The connection id in a Bolt worker's name, or null. */
    static String connectionOfThread(String name) {
        int open = name.indexOf("[bolt-");
        if (open < 0) return null;
        int end = name.indexOf(' ', open);
        return end < 0 ? null : name.substring(open + 1, end);
    }

    /** True while the query is still the one its transaction runs (Neo4j reuses transaction objects for later transactions). */
    private boolean stillRunning(Running query) {
        if (!query.handle().isOpen()) return false;
        for (Running now : running()) {
            if (now.key().equals(query.key())) return now.query() == query.query();
        }
        return false;
    }

    private TrackedNetworkConnection connection(String id) {
        GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        return system.getDependencyResolver().resolveDependency(NetworkConnectionTracker.class).get(id);
    }

    /**
     * Marks the transaction terminated and closes its connection, so nothing the thread might still
     * send reaches its client (a stopped query can end as if it had succeeded, with rows missing);
     * then stops the thread if it still serves that connection.
     */
    private void reap(Running query, String why) {
        if (reaped.contains(query.key()) || !stillRunning(query)) return;
        reaped.add(query.key());
        System.err.println("reaper: stopping the query on " + query.connectionId() + ", " + why + ": " + queryText(query.query()));
        query.handle().markForTermination(org.neo4j.kernel.api.exceptions.Status.Transaction.Terminated);
        TrackedNetworkConnection connection = connection(query.connectionId());
        if (connection != null) connection.close();
        Thread thread = query.thread();
        if (thread == null) return;
        try {
            Thread.sleep(CLOSE_BEFORE_STOP_MS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!query.connectionId().equals(connectionOfThread(thread.getName()))) return;
        stop(thread);
    }

    /** The start of a query's text, for the log. */
    private static String queryText(ExecutingQuery query) {
        String text = query.rawQueryText().replaceAll("\\s+", " ");
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
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
