package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DecisionUpsert;
import org.zstack.aio.plugin.UnstoredRecords;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.core.db.Q;
import org.zstack.core.thread.SyncTask;
import org.zstack.core.thread.ThreadFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.gson.JSONObjectUtil;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The applied decisions, one row per volume in AioVolumeIoModeDecisionVO (the module's Flyway scripts), with the
 * columns the core names ({@link DecisionRecord#STORED_COLUMNS}). Written in one statement per operation, the core's
 * {@link DecisionUpsert} on ZStack's data source (a record whose content is unchanged keeps its createDate), read
 * through the entity {@link AioVolumeIoModeDecisionVO}.
 *
 * <p>The records of a VM start are written off the start's thread ({@link #saveOrKeepLater}): on one serial queue of
 * this node (ZStack's ThreadFacade, one sync signature), so they land in the order the starts were done, and every
 * read of this store, and every query of the table through ZStack's query service ({@link DecisionQueryFreshness}),
 * first waits for the writes of this node still queued, bounded: this node reads its own writes, and a hot-plug's or
 * migration's records, stored at once, never land before an older start's. A query answered by another node (ZStack
 * runs a VM's start on the node that owns the VM, a query on the node that received it) may see a start's records a
 * few milliseconds after the start's API answered (docs/zstack-module.md, "Cost").
 */
public final class IoModeDecisionStore {
    private static final CLogger logger = Utils.getLogger(IoModeDecisionStore.class);

    static final String TABLE = "AioVolumeIoModeDecisionVO";

    /** the serial queue of this node's deferred writes */
    static final String WRITES = "aio-io-mode-decision-writes";
    /** how long a read waits for a queued write before it reads what is stored */
    private static final long WAIT_SECONDS = 10;

    private final DatabaseFacade dbf;
    private final ThreadFacade threads;
    /** the records of operations done that could not be stored, until a store of their volume succeeds */
    private final UnstoredRecords unstored = new UnstoredRecords();
    /** volume uuid -> the queued write of its newest record */
    private final Map<String, Future<Void>> queued = new ConcurrentHashMap<>();

    public IoModeDecisionStore(DatabaseFacade dbf, ThreadFacade threads) {
        this.dbf = dbf;
        this.threads = threads;
    }

    /**
     * The records of an operation the host has done, stored as {@link #saveOrKeep} does, on this node's serial queue of
     * writes: the operation goes on at once. Never throws.
     */
    public void saveOrKeepLater(final List<DecisionRecord> records) {
        if (records.isEmpty()) return;
        final CompletableFuture<Void> written = new CompletableFuture<>();
        // registered before it is queued: a read that comes first waits for it
        for (DecisionRecord r : records) queued.put(r.getVolumeUuid(), written);
        try {
            threads.syncSubmit(new SyncTask<Void>() {
                @Override
                public Void call() {
                    try {
                        write(records);
                    } finally {
                        done(records, written);
                    }
                    return null;
                }

                @Override
                public String getName() {
                    return WRITES + "-" + records.get(0).getVmInstanceUuid();
                }

                @Override
                public String getSyncSignature() {
                    return WRITES;
                }

                @Override
                public int getSyncLevel() {
                    return 1;
                }
            });
        } catch (RuntimeException e) {
            // should the queue throw: stored here, as before the queue (ZStack 5.2.0's thread facade logs a rejection,
            // at a node's stop, instead; those records are then lost as an unstored record is when a node stops)
            done(records, written);
            write(records);
        }
    }

    private void done(List<DecisionRecord> records, CompletableFuture<Void> written) {
        for (DecisionRecord r : records) queued.remove(r.getVolumeUuid(), written);
        written.complete(null);
    }

    /**
     * Waits for the queued writes of these volumes, {@value #WAIT_SECONDS} s at most for all of them together; a write
     * that does not end in time is said in one line and what is stored is read.
     */
    void awaitWrites(Collection<String> volumeUuids) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        Set<Future<Void>> waited = new HashSet<>();
        for (String u : volumeUuids) {
            Future<Void> f = queued.get(u);
            if (f == null || !waited.add(f)) continue;
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                logger.warn(String.format("plugin-aio: the queued io-mode records of volume[uuid:%s] are not written"
                        + " after %d s; what is stored is read", u, WAIT_SECONDS));
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                // the task itself never throws (write keeps what it cannot store)
                logger.warn(String.format("plugin-aio: the queued io-mode records of volume[uuid:%s] failed: %s", u, rootCause(e)));
            }
        }
    }

    /** Waits for every write queued on this node so far ({@link #awaitWrites}'s bound). */
    void awaitAllWrites() {
        if (queued.isEmpty()) return;
        awaitWrites(new ArrayList<>(queued.keySet()));
    }

    public void save(List<DecisionRecord> decisions) {
        if (decisions.isEmpty()) return;
        DecisionUpsert u = DecisionUpsert.of(TABLE, decisions, JSONObjectUtil::toJsonString);
        // the facade's data source as it is now, not one kept from boot: every statement goes where ZStack's own go
        // (AioIoModeCostCase counts them through a counting data source set on the facade)
        new JdbcTemplate(dbf.getDataSource()).update(u.sql(), u.args().toArray());
    }

    /**
     * The records of an operation the host has done: stored, or, when the database fails, said in one line and kept for
     * the next read-back of the VM, which stores them. Never throws: a record must not fail what the host did.
     */
    public void saveOrKeep(List<DecisionRecord> records) {
        if (records.isEmpty()) return;
        // a start's records of the same volumes still queued land first: an older record never overwrites this one
        List<String> volumes = new ArrayList<>();
        for (DecisionRecord r : records) volumes.add(r.getVolumeUuid());
        awaitWrites(volumes);
        write(records);
    }

    /** {@link #saveOrKeep} without waiting for the queue (the queue's own task). */
    private void write(List<DecisionRecord> records) {
        try {
            save(records);
            unstored.stored(records);
        } catch (RuntimeException e) {
            unstored.keep(records);
            DecisionRecord first = records.get(0);
            List<String> volumes = new ArrayList<>();
            for (DecisionRecord r : records) volumes.add(r.getVolumeUuid());
            logger.warn(String.format("plugin-aio: the io-mode records of the %s of vm[uuid:%s] (volumes %s) could not be"
                    + " stored: %s; the %s stands, and the next read-back of the VM stores them", first.getOperation(),
                    first.getVmInstanceUuid(), volumes, rootCause(e), first.getOperation()));
        }
    }

    /**
     * What a read-back found: the records waiting in {@link #unstored} stored whole ({@link #saveOrKeep}), the others
     * as found on their stored rows ({@link #saveReadBack}). A store that fails is said in one line.
     */
    public void saveFound(List<DecisionRecord> found) {
        List<List<DecisionRecord>> split = unstored.split(found);
        saveOrKeep(split.get(0));
        try {
            saveReadBack(split.get(1));
        } catch (RuntimeException e) {
            logger.warn(String.format("plugin-aio: what the read-back found on %d disk(s) could not be stored: %s; the next"
                    + " read-back stores it", split.get(1).size(), rootCause(e)));
        }
    }

    /** The records of operations done that could not be stored yet. */
    public UnstoredRecords unstored() {
        return unstored;
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /**
     * What a read-back found, on the stored rows that still hold the decision it compared (the core's
     * {@link DecisionUpsert#readBack}): one statement, no row created, the decision's date kept.
     */
    public void saveReadBack(List<DecisionRecord> found) {
        if (found.isEmpty()) return;
        DecisionUpsert u = DecisionUpsert.readBack(TABLE, found);
        new JdbcTemplate(dbf.getDataSource()).update(u.sql(), u.args().toArray());
    }

    /** The stored decision of a volume, or null when none was applied yet. */
    public DecisionRecord find(String volumeUuid) {
        awaitWrites(java.util.Collections.singletonList(volumeUuid));
        AioVolumeIoModeDecisionVO vo = Q.New(AioVolumeIoModeDecisionVO.class)
                .eq(AioVolumeIoModeDecisionVO_.volumeUuid, volumeUuid).find();
        return vo == null ? null : vo.toRecord();
    }

    /** volume uuid -> its stored decision, for the volumes that have one (one query). */
    public Map<String, DecisionRecord> findAll(Collection<String> volumeUuids) {
        Map<String, DecisionRecord> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        awaitWrites(volumeUuids);
        List<AioVolumeIoModeDecisionVO> rows = Q.New(AioVolumeIoModeDecisionVO.class)
                .in(AioVolumeIoModeDecisionVO_.volumeUuid, new ArrayList<>(volumeUuids)).list();
        for (AioVolumeIoModeDecisionVO vo : rows) {
            DecisionRecord r = vo.toRecord();
            out.put(r.getVolumeUuid(), r);
        }
        return out;
    }
}
