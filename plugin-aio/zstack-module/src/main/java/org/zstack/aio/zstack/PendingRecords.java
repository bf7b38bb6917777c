package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.header.errorcode.OperationFailureException;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.zstack.core.Platform.operr;

/**
 * The records of plans sent to agents that have not answered yet, by VM or volume uuid: stored once the agent has
 * answered success (or, when the database fails, kept for the next read-back: a record never fails what the host did),
 * dropped when it failed. A refused plan never gets here: nothing of it reaches the host.
 */
final class PendingRecords {
    private static final CLogger logger = Utils.getLogger(PendingRecords.class);

    private final IoModeDecisionStore store;
    private final Map<String, List<DecisionRecord>> inFlight = new ConcurrentHashMap<>();

    PendingRecords(IoModeDecisionStore store) {
        this.store = store;
    }

    /**
     * The plan's records, held for {@code key} until the agent answers.
     *
     * @throws OperationFailureException with the core's refusal when the plan is refused (ZStack then sends nothing)
     */
    void hold(String key, DiskPlan plan) {
        IoModeRefusal r = plan.refusal();
        if (r != null) {
            logger.warn(String.format("plugin-aio refused the %s of vm[uuid:%s]: %s", plan.request().operation().wire(),
                    plan.request().vmUuid(), r.text()));
            // "%s": the sentence quotes names and values that may hold a format directive of their own
            throw new OperationFailureException(operr("%s", r.text()));
        }
        inFlight.put(key, plan.records());
    }

    /** The agent answered success: the held records stored, or kept for the next read-back (never thrown). */
    void saveHeld(String key) {
        List<DecisionRecord> held = inFlight.remove(key);
        if (held != null) store.saveOrKeep(held);
    }

    /** As {@link #saveHeld}, the write queued off the caller's thread ({@link IoModeDecisionStore#saveOrKeepLater}). */
    void saveHeldLater(String key) {
        List<DecisionRecord> held = inFlight.remove(key);
        if (held != null) store.saveOrKeepLater(held);
    }

    void drop(String key) {
        inFlight.remove(key);
    }
}
