package witness.neo4j;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.internal.helpers.HostnamePort;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Witness's Neo4j launcher: Neo4j 5.20 Community, embedded, with Bolt on a free loopback port and
 * authentication off. Prints one line {@code NEO4J_READY bolt://127.0.0.1:<port>} on stdout when
 * Bolt accepts connections, then serves until stdin closes, its parent process goes away (checked
 * twice a second: a parent killed with SIGKILL leaves it re-parented) or the JVM gets SIGTERM/SIGINT;
 * either way the database is shut down cleanly and the line {@code NEO4J_STOPPED} is printed. A
 * shutdown that does not finish within {@code --stop-grace-s} (a query that never checks for
 * termination keeps its thread busy) is cut short: the home is deleted and the JVM halts.
 *
 * <p>The {@link Reaper} stops queries that would otherwise outlive their welcome: those still running
 * long after their transaction was terminated (a pure computation never checks), and, when the heap
 * stays nearly full, the query that used the most memory (if it used at least an eighth of the heap).
 *
 * <p>Arguments (all {@code --name=value}, all optional):
 * <ul>
 *   <li>{@code --home=DIR}: Neo4j home (data, logs); default: a new temporary folder;</li>
 *   <li>{@code --port=N}: Bolt port, 0 (default) = a free port chosen by the OS;</li>
 *   <li>{@code --pagecache-mb=N}: page cache size (default 64);</li>
 *   <li>{@code --tx-memory-mb=N}: memory one transaction may use before it fails (default 256);</li>
 *   <li>{@code --tx-timeout-s=N}: server-wide transaction timeout, 0 = none (default 0);</li>
 *   <li>{@code --tx-total-memory-mb=N}: memory all transactions together may use (default: no limit);</li>
 *   <li>{@code --stop-grace-s=N}: how long a shutdown may take before the JVM halts (default 5);</li>
 *   <li>{@code --reap-after-s=N}: stop a terminated query still running after N s, 0 = never (default 5);</li>
 *   <li>{@code --delete-home}: delete the home folder after shutdown.</li>
 * </ul>
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        Path home = null;
        int port = 0;
        long pageCacheMb = 64;
        long txMemoryMb = 256;
        long txTimeoutS = 0;
        long txTotalMemoryMb = 0;
        long stopGraceS = 5;
        long reapAfterS = 5;
        boolean deleteHome = false;
        for (String arg : args) {
            String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
            if (arg.startsWith("--home=")) home = Path.of(value);
            else if (arg.startsWith("--port=")) port = Integer.parseInt(value);
            else if (arg.startsWith("--pagecache-mb=")) pageCacheMb = Long.parseLong(value);
            else if (arg.startsWith("--tx-memory-mb=")) txMemoryMb = Long.parseLong(value);
            else if (arg.startsWith("--tx-timeout-s=")) txTimeoutS = Long.parseLong(value);
            else if (arg.startsWith("--tx-total-memory-mb=")) txTotalMemoryMb = Long.parseLong(value);
            else if (arg.startsWith("--stop-grace-s=")) stopGraceS = Long.parseLong(value);
            else if (arg.startsWith("--reap-after-s=")) reapAfterS = Long.parseLong(value);
            else if (arg.equals("--delete-home")) deleteHome = true;
            else {
                System.err.println("NEO4J_FAILED unknown argument: " + arg);
                System.exit(2);
            }
        }
        if (home == null) {
            home = Files.createTempDirectory("witness-neo4j-");
            deleteHome = true;
        }
        // Neo4j's own console output goes to stderr, so stdout carries only our protocol lines.
        PrintStream protocol = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);

        long started = System.nanoTime();
        DatabaseManagementService dbms;
        try {
            DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                    .setConfig(BoltConnector.enabled, true)
                    .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                    .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                    .setConfig(GraphDatabaseSettings.auth_enabled, false)
                    .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                    .setConfig(GraphDatabaseSettings.memory_transaction_max_size, ByteUnit.mebiBytes(txMemoryMb))
                    .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                    .setConfig(GraphDatabaseSettings.udc_enabled, false)
                    // Bolt waits 5 s by default on shutdown (worker pool, then Netty's quiet period);
                    // Witness's clients are gone by then, so a short wait is still a clean stop.
                    .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofMillis(500))
                    .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                    .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(2));
            if (txTimeoutS > 0) builder.setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(txTimeoutS));
            if (txTotalMemoryMb > 0) builder.setConfig(GraphDatabaseSettings.memory_transaction_global_max_size, ByteUnit.mebiBytes(txTotalMemoryMb));
            dbms = builder.build();
        } catch (Throwable error) {
            protocol.println("NEO4J_FAILED " + oneLine(error));
            if (deleteHome) deleteRecursively(home);
            System.exit(1);
            return;
        }

        GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        HostnamePort bolt = system.getDependencyResolver().resolveDependency(ConnectorPortRegister.class).getLocalAddress(ConnectorType.BOLT);
        if (bolt == null) {
            protocol.println("NEO4J_FAILED the Bolt connector did not register an address");
            dbms.shutdown();
            System.exit(1);
            return;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean(false);
        final Path homeDir = home;
        final boolean removeHome = deleteHome;
        final long graceMs = stopGraceS * 1000;
        Runnable stop = () -> {
            if (!stopping.compareAndSet(false, true)) return;
            Thread halt = new Thread(() -> {
                try {
                    Thread.sleep(graceMs);
                } catch (InterruptedException done) {
                    return;
                }
                System.err.println("shutdown did not finish within " + graceMs / 1000 + " s: halting");
                if (removeHome) deleteRecursively(homeDir);
                protocol.println("NEO4J_STOPPED halted");
                Runtime.getRuntime().halt(3);
            }, "witness-neo4j-halt");
            halt.setDaemon(true);
            halt.start();
            try {
                dbms.shutdown();
            } catch (Throwable error) {
                System.err.println("shutdown failed: " + oneLine(error));
            }
            if (removeHome) deleteRecursively(homeDir);
            protocol.println("NEO4J_STOPPED");
            stopped.countDown();
        };
        Thread hook = new Thread(stop, "witness-neo4j-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        long ms = (System.nanoTime() - started) / 1_000_000;
        protocol.println("NEO4J_READY bolt://127.0.0.1:" + bolt.getPort() + " " + ms + "ms home=" + home);

        // Serve until stdin reaches end of file: the parent closed it, or died.
        Thread watcher = new Thread(() -> {
            try (InputStream in = System.in) {
                byte[] buffer = new byte[256];
                while (in.read(buffer) >= 0) {
                    // input is ignored; only its end matters
                }
            } catch (IOException ignored) {
                // a broken stdin means the parent is gone, as end of file does
            }
            stop.run();
        }, "witness-neo4j-stdin");
        watcher.setDaemon(true);
        watcher.start();

        // stdin may stay open when the parent dies (another process holding the pipe): watch the parent too.
        long parentPid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        Reaper reaper = new Reaper(dbms, reapAfterS * 1000, Runtime.getRuntime().maxMemory());
        reaper.watchHeap();
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "witness-neo4j-watch");
            thread.setDaemon(true);
            return thread;
        });
        watch.scheduleWithFixedDelay(() -> {
            Optional<ProcessHandle> parent = ProcessHandle.current().parent();
            if (parent.isEmpty() || parent.get().pid() != parentPid || !parent.get().isAlive()) {
                System.err.println("the parent process is gone: stopping");
                new Thread(stop, "witness-neo4j-orphaned").start();
            }
        }, 500, 500, TimeUnit.MILLISECONDS);
        watch.scheduleWithFixedDelay(() -> {
            if (!stopping.get()) reaper.run();
        }, Reaper.SAMPLE_MS, Reaper.SAMPLE_MS, TimeUnit.MILLISECONDS);

        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook itself ran stop(); the JVM exits after it
        }
        System.exit(0);
    }

    static String oneLine(Throwable error) {
        StringBuilder text = new StringBuilder(error.toString());
        for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(" <- ").append(cause);
        }
        return text.toString().replace('\n', ' ');
    }

    private static void deleteRecursively(Path path) {
        try (var walk = Files.walk(path)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a leftover temp file is not worth failing a shutdown for
                }
            });
        } catch (IOException ignored) {
            // the folder is already gone
        }
    }
}
