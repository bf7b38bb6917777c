package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.bench.BenchJob;
import org.zstack.aio.plugin.bench.BenchLine;
import org.zstack.aio.plugin.bench.BenchRun;
import org.zstack.aio.plugin.bench.BenchScratch;
import org.zstack.aio.plugin.bench.BenchScript;
import org.zstack.aio.plugin.bench.StorageBenchmark;
import org.zstack.aio.plugin.cache.IoFactsChange;
import org.zstack.aio.plugin.cache.IoFactsChanges;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs benchmarks on this management node, each as plugin-core's {@link BenchJob} stepping from run to run: first one
 * short call for the room (host-bench-scratch.sh room), then one call per run (host-bench.sh with the benchmark's tag),
 * each sent when the one before has answered, so no thread of ZStack's is held longer than one run (at most 10 s);
 * then, whatever ended it (every run made, the budget, a failure, a refusal, a cancel), one call that removes the
 * benchmark's scratch files (host-bench-scratch.sh clean). A benchmark that measured something is stored
 * ({@link BenchmarkStore}, one statement) and announced ({@link IoFactsChange#benchmark}); one that measured nothing
 * leaves the stored one as it was. One benchmark per host x storage at a time.
 */
public class IoModeBenchmarks {
    private static final CLogger logger = Utils.getLogger(IoModeBenchmarks.class);

    /** How a benchmark ended, for the API's event or the long job's result. */
    static final class Ended {
        /** null when it never ran (no room, cancelled before its first run, the host gone): {@link #refusal} says why */
        final StorageBenchmark benchmark;
        final boolean stored;
        final String scratch;
        final String refusal;

        private Ended(StorageBenchmark benchmark, boolean stored, String scratch, String refusal) {
            this.benchmark = benchmark;
            this.stored = stored;
            this.scratch = scratch;
            this.refusal = refusal;
        }
    }

    /** Told the progress after each run, and the end once. */
    interface Listener {
        void progress(int done, int total);

        void ended(Ended ended);
    }

    private static final class Running {
        final BenchmarkTarget target;
        final String tag;
        final Listener listener;
        /** ISO-8601 UTC: the benchmark's date */
        final String startedAt = IsoDates.format(System.currentTimeMillis());
        volatile BenchJob job;
        volatile String cancelled;

        Running(BenchmarkTarget target, String tag, Listener listener) {
            this.target = target;
            this.tag = tag;
            this.listener = listener;
        }
    }

    private final HostShell shell;
    private final BenchmarkStore store;
    private final ConcurrentHashMap<String, Running> byPair = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Running> byTag = new ConcurrentHashMap<>();
    /** Where a stored benchmark is announced to every management node (the canonical event /aio/ioMode/factsChanged). */
    private final IoFactsChanges changes;

    public IoModeBenchmarks(HostShell shell, BenchmarkStore store, IoFactsChanges changes) {
        this.shell = shell;
        this.store = store;
        this.changes = changes;
    }

    private static String pair(String hostUuid, String primaryStorageUuid) {
        return hostUuid + "/" + primaryStorageUuid;
    }

    /** The tag of the benchmark running on this node for the host x storage, or null. */
    String runningTag(String hostUuid, String primaryStorageUuid) {
        Running r = byPair.get(pair(hostUuid, primaryStorageUuid));
        return r == null ? null : r.tag;
    }

    /**
     * Starts it; the listener hears the progress and the end, on ZStack's threads.
     *
     * @throws BenchmarkTargets.Refused when one is already running for the host x storage on this node
     */
    void start(BenchmarkTarget target, String tag, Listener listener) {
        BenchScratch.requireTag(tag);
        Running r = new Running(target, tag, listener);
        Running other = byPair.putIfAbsent(pair(target.hostUuid, target.primaryStorageUuid), r);
        if (other != null) throw new BenchmarkTargets.Refused(alreadyRunning(target.hostUuid, target.primaryStorageUuid, other.tag));
        byTag.put(tag, r);
        logger.info("plugin-aio: io-mode benchmark " + tag + " of " + target + " starts: " + target.plan.runs().size() + " runs");
        shell.answer(target.hostUuid, scratch(target).room(target.path).heredocSafe(), a -> {
            BenchScratch.Answer room = a.failure != null ? null : BenchScratch.readRoom(a.stdout, a.stderr, a.exitCode);
            if (a.failure != null || !room.ok()) {
                end(r, null, false, "nothing was run, so nothing was written", a.failure != null
                        ? "the host could not be asked for the room on " + target.path + ": " + a.failure : room.sentence());
                return;
            }
            r.job = new BenchJob(target.plan, System::nanoTime);
            if (r.cancelled != null) r.job.cancel(r.cancelled);
            step(r);
        });
    }

    static String alreadyRunning(String hostUuid, String primaryStorageUuid, String tag) {
        return "A benchmark of primary storage " + primaryStorageUuid + " on host " + hostUuid + " is already running ("
                + tag + "); wait for it to end, or cancel it (CancelLongJob), then run it again.";
    }

    /**
     * Stops the benchmark tagged so before its next run (the run in flight ends and is kept).
     *
     * @return false when no benchmark of that tag runs on this node
     */
    boolean cancel(String tag, String why) {
        Running r = byTag.get(tag);
        if (r == null) return false;
        r.cancelled = why;
        BenchJob job = r.job;
        if (job != null) job.cancel(why);
        return true;
    }

    private void step(Running r) {
        BenchmarkTarget t = r.target;
        BenchRun run = r.job.next();
        if (run == null) {
            clean(r);
            return;
        }
        String call = new BenchScript(MeasureFiles.text(BenchScript.RESOURCE), t.settings).forRun(run, t.path, t.plan.kind(), r.tag).heredocSafe();
        shell.answer(t.hostUuid, call, a -> {
            try {
                if (a.failure != null) {
                    r.job.unreachable(run, a.failure);
                } else {
                    r.job.record(run, a.stdout, a.stderr, a.exitCode);
                }
                r.listener.progress(r.job.done(), r.job.total());
            } catch (RuntimeException e) {
                logger.warn("plugin-aio: io-mode benchmark " + r.tag + " could not record run " + run + ": " + e, e);
            }
            step(r);
        });
    }

    /** The final call, whatever ended the job: its scratch files go. Then it is stored, if it measured anything. */
    private void clean(Running r) {
        BenchmarkTarget t = r.target;
        shell.answer(t.hostUuid, scratch(t).clean(t.path, r.tag).heredocSafe(), a -> {
            String scratch;
            if (a.failure != null) {
                scratch = "the scratch files could not be checked: " + a.failure + "; the next run on " + t.path
                        + " removes any older than 5 minutes";
            } else {
                BenchScratch.Answer c = BenchScratch.readClean(a.stdout, a.stderr, a.exitCode);
                scratch = c.sentence();
            }
            StorageBenchmark b = r.job.result(t.hostUuid, t.primaryStorageUuid, r.startedAt);
            boolean measured = false;
            for (BenchLine l : b.lines()) measured |= l.kind() == BenchLine.Kind.MEASURED;
            boolean stored = false;
            if (measured && b.outcome().keepsFigures()) {
                try {
                    store.save(b);
                    stored = true;
                    publish(t.hostUuid);
                } catch (RuntimeException e) {
                    logger.warn("plugin-aio: io-mode benchmark " + r.tag + " could not be stored: " + e, e);
                }
            }
            end(r, b, stored, scratch, null);
        });
    }

    private void publish(String hostUuid) {
        changes.publish(IoFactsChange.benchmark(hostUuid)); // every node reads the host's benchmarks again
    }

    private void end(Running r, StorageBenchmark b, boolean stored, String scratch, String refusal) {
        byPair.remove(pair(r.target.hostUuid, r.target.primaryStorageUuid), r);
        byTag.remove(r.tag, r);
        logger.info("plugin-aio: io-mode benchmark " + r.tag + " of " + r.target + " ended: "
                + (b == null ? "not run: " + refusal : b.outcome() + (b.note() == null ? "" : " (" + b.note() + ")")
                + (stored ? ", stored" : ", not stored")) + "; " + scratch);
        r.listener.ended(new Ended(b, stored, scratch, refusal));
    }

    private static BenchScratch scratch(BenchmarkTarget t) {
        return new BenchScratch(MeasureFiles.text(BenchScratch.RESOURCE), t.settings);
    }
}
