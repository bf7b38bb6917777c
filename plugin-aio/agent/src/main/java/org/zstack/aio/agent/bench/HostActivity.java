package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.http.AgentException;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.zstack.aio.agent.api.AgentPaths;

/**
 * Keeps benchmarks and VM starts apart on one host: a benchmark saturates the storage and would both slow the
 * start and be falsified by it. VM starts share the lock (they run in parallel); a benchmark needs it alone.
 * <ul>
 *   <li>A benchmark asked while a VM is starting (or another benchmark runs) is refused with 409.</li>
 *   <li>A VM start asked while a benchmark runs cancels the benchmark and waits for it to stop (under a second:
 *       the running qemu-img is killed), so the start never runs concurrently with it and is never held for the
 *       benchmark's whole budget.</li>
 * </ul>
 */
public final class HostActivity {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile Runnable cancelBenchmark;

    public <T> T vmStart(Supplier<T> start) {
        Runnable cancel = cancelBenchmark;
        if (cancel != null) cancel.run();
        lock.readLock().lock();
        try {
            return start.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs a benchmark alone, or refuses with 409 when a VM is starting or another benchmark runs. */
    public <T> T benchmark(Runnable cancel, Supplier<T> bench) {
        if (!lock.writeLock().tryLock()) {
            throw AgentException.conflict(lock.isWriteLocked()
                            ? "a benchmark is already running on this host"
                            : "this host is starting a VM; a benchmark would slow the start and be falsified by it",
                    "retry when it has finished (a benchmark takes at most its time budget; POST "
                    + AgentPaths.HOST_BENCH_CANCEL + " cancels one)");
        }
        cancelBenchmark = cancel;
        try {
            return bench.get();
        } finally {
            cancelBenchmark = null;
            lock.writeLock().unlock();
        }
    }

    /** Cancels the running benchmark; false when none runs. */
    public boolean cancelBenchmark() {
        Runnable c = cancelBenchmark;
        if (c == null) return false;
        c.run();
        return true;
    }
}
