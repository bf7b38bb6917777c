package org.zstack.aio.zstack;

import org.apache.logging.log4j.ThreadContext;
import org.zstack.aio.plugin.bench.BenchOutcome;
import org.zstack.core.db.Q;
import org.zstack.core.progress.ProgressReportService;
import org.zstack.header.Constants;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.longjob.LongJobErrors;
import org.zstack.header.longjob.LongJobState;
import org.zstack.header.longjob.LongJobVO;
import org.zstack.header.longjob.LongJobVO_;
import org.zstack.utils.Utils;
import org.zstack.utils.gson.JSONObjectUtil;
import org.zstack.utils.logging.CLogger;

import java.util.Arrays;
import java.util.List;

import static org.zstack.core.Platform.err;
import static org.zstack.core.Platform.operr;

/**
 * RunIoModeBenchmark as ZStack sees it, called directly or as a long job: checks the request ({@link BenchmarkTargets};
 * a benchmark of the same host x storage already running, here or as another node's long job, is refused too), runs
 * it ({@link IoModeBenchmarks}), reports its progress to ZStack's progress service under the API's id (done x 100 /
 * total after each run: GetTaskProgress), and answers how it ended.
 */
public class BenchmarkRequests {
    private static final CLogger logger = Utils.getLogger(BenchmarkRequests.class);

    /** The long job's name: its API message's simple name, as ZStack's LongJobFactory names it. */
    static final String JOB_NAME = APIRunIoModeBenchmarkMsg.class.getSimpleName();
    private static final List<LongJobState> UNFINISHED = Arrays.asList(LongJobState.Waiting, LongJobState.Running,
            LongJobState.Canceling, LongJobState.Suspended);

    /** The task name of its progress rows (ZStack's TaskProgressVO.taskName). */
    static final String TASK_NAME = "plugin-aio io-mode benchmark";

    /** How it ended: the event to publish, or the error. */
    interface Answer {
        void success(APIRunIoModeBenchmarkEvent event);

        void fail(ErrorCode error);
    }

    private final BenchmarkTargets targets;
    private final IoModeBenchmarks benchmarks;

    public BenchmarkRequests(BenchmarkTargets targets, IoModeBenchmarks benchmarks) {
        this.targets = targets;
        this.benchmarks = benchmarks;
    }

    /** For the API interceptor: the target, or the refusal (a benchmark of the pair already running included). */
    BenchmarkTarget check(APIRunIoModeBenchmarkMsg msg) {
        BenchmarkTarget t = resolve(msg);
        String tag = benchmarks.runningTag(t.hostUuid, t.primaryStorageUuid);
        if (tag == null) tag = runningLongJob(t.hostUuid, t.primaryStorageUuid);
        if (tag != null) throw new BenchmarkTargets.Refused(IoModeBenchmarks.alreadyRunning(t.hostUuid, t.primaryStorageUuid, tag));
        return t;
    }

    /**
     * Runs it. {@code tag} names its scratch files (the API's or the long job's uuid), {@code apiId} its progress.
     */
    void run(APIRunIoModeBenchmarkMsg msg, String tag, String apiId, Answer answer) {
        BenchmarkTarget t;
        try {
            t = resolve(msg);
            benchmarks.start(t, tag, new IoModeBenchmarks.Listener() {
                @Override
                public void progress(int done, int total) {
                    report(apiId, done, total);
                }

                @Override
                public void ended(IoModeBenchmarks.Ended ended) {
                    answer(apiId, tag, ended, answer);
                }
            });
        } catch (BenchmarkTargets.Refused e) {
            answer.fail(operr("%s", e.getMessage()));
        }
    }

    private BenchmarkTarget resolve(APIRunIoModeBenchmarkMsg msg) {
        return targets.resolve(msg.getHostUuid(), msg.getPrimaryStorageUuid(), msg.getImageKind(), msg.getBudgetSeconds(),
                msg.getRunSecondsMax());
    }

    private static void answer(String apiId, String tag, IoModeBenchmarks.Ended e, Answer answer) {
        if (e.benchmark == null) {
            answer.fail(operr("%s", e.refusal));
            return;
        }
        BenchOutcome o = e.benchmark.outcome();
        if (o == BenchOutcome.CANCELLED) {
            answer.fail(err(LongJobErrors.CANCELED, "the io-mode benchmark %s was cancelled: %s%s; %s", tag, e.benchmark.note(),
                    e.stored ? " (the runs made are stored)" : " (nothing was measured, nothing stored)", e.scratch));
            return;
        }
        if (!o.keepsFigures()) {
            answer.fail(operr("the io-mode benchmark of primary storage %s on host %s %s: %s; nothing was stored; %s",
                    e.benchmark.primaryStorageUuid(), e.benchmark.hostUuid(), o == BenchOutcome.REFUSED ? "was refused" : "failed",
                    e.benchmark.note(), e.scratch));
            return;
        }
        APIRunIoModeBenchmarkEvent evt = new APIRunIoModeBenchmarkEvent(apiId);
        evt.setInventory(IoModeBenchmarkInventory.of(e.benchmark));
        evt.setStored(e.stored);
        evt.setScratch(e.scratch);
        answer.success(evt);
    }

    /** ZStack's progress of the API (a long job's apiId): the percentage of runs resolved. */
    private static void report(String apiId, int done, int total) {
        // the reply's thread may carry another task's context: the progress row names this API and task
        String api = ThreadContext.get(Constants.THREAD_CONTEXT_API);
        String task = ThreadContext.get(Constants.THREAD_CONTEXT_TASK_NAME);
        ThreadContext.put(Constants.THREAD_CONTEXT_API, apiId);
        ThreadContext.put(Constants.THREAD_CONTEXT_TASK_NAME, TASK_NAME);
        try {
            ProgressReportService.reportProgress(String.valueOf(total == 0 ? 100 : done * 100 / total));
        } catch (RuntimeException ex) {
            logger.debug("plugin-aio: progress " + done + "/" + total + " of " + apiId + " not reported: " + ex);
        } finally {
            restore(Constants.THREAD_CONTEXT_API, api);
            restore(Constants.THREAD_CONTEXT_TASK_NAME, task);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) ThreadContext.remove(key);
        else ThreadContext.put(key, value);
    }

    /** A long job of another node (or not yet started here) benchmarking the pair: its uuid, or null. */
    private static String runningLongJob(String hostUuid, String primaryStorageUuid) {
        List<LongJobVO> jobs = Q.New(LongJobVO.class).eq(LongJobVO_.jobName, JOB_NAME).in(LongJobVO_.state, UNFINISHED).list();
        for (LongJobVO j : jobs) {
            try {
                APIRunIoModeBenchmarkMsg m = JSONObjectUtil.toObject(j.getJobData(), APIRunIoModeBenchmarkMsg.class);
                if (hostUuid.equals(m.getHostUuid()) && primaryStorageUuid.equals(m.getPrimaryStorageUuid())) return j.getUuid();
            } catch (RuntimeException ex) {
                logger.debug("plugin-aio: long job " + j.getUuid() + "'s data is not a benchmark request: " + ex);
            }
        }
        return null;
    }
}
