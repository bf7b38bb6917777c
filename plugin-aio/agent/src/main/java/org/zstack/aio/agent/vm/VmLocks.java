package org.zstack.aio.agent.vm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per VM, per agent: a start, a stop and a hot-plug of the same VM must not interleave (a stop
 * between a start's define and its read-back would make the start answer about a domain that is gone), while
 * different VMs proceed in parallel. Locks are never removed; one small object per VM ever seen is cheap.
 */
public final class VmLocks {

    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    public <T> T with(String vmUuid, Supplier<T> action) {
        ReentrantLock lock = locks.computeIfAbsent(vmUuid == null ? "" : vmUuid, k -> new ReentrantLock());
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
