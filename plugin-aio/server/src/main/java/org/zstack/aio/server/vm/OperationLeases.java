package org.zstack.aio.server.vm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.inventory.VmInstanceVO.State;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases of the VM operations this node has in flight. A start, stop or migration writes a lease and a random
 * token into the VM's row with its claim, and this node renews the leases of its tokens while the operations run; a
 * node that dies (or loses its database) stops renewing, and any node's tracker may then settle the VM from what
 * libvirt says. The map is this node's knowledge of its own work, not a lock: exclusion is the database
 * compare-and-set, and the token tells an operation's own claim (committed, acknowledgement lost) from another's.
 */
@Component
public class OperationLeases {

    private static final Logger log = LoggerFactory.getLogger(OperationLeases.class);
    public static final Duration LEASE = Duration.ofSeconds(10);

    /** One operation on one VM: {@code token} is what its claim writes into the row. */
    public record Operation(String vmUuid, String token) {
    }

    /** token → VM: two requests for one VM on this node are two entries, so the one refused cannot end the other's */
    private final Map<String, String> inFlight = new ConcurrentHashMap<>();
    private final VmStateRepository states;
    private final UnitOfWork work;
    /** false only where a test counts one operation's statements (background renewals would add theirs) */
    private final boolean renewing;

    public OperationLeases(VmStateRepository states, UnitOfWork work,
                           @org.springframework.beans.factory.annotation.Value("${aio.tracker.enabled:true}") boolean renewing) {
        this.states = states;
        this.work = work;
        this.renewing = renewing;
    }

    public LocalDateTime until() {
        return LocalDateTime.now().plus(LEASE);
    }

    Operation begin(String vmUuid) {
        Operation op = new Operation(vmUuid, UUID.randomUUID().toString().replace("-", ""));
        inFlight.put(op.token(), vmUuid);
        return op;
    }

    void end(Operation op) {
        inFlight.remove(op.token());
    }

    /**
     * Whether the last step of {@code op} is the one that ends it, given the rows its compare-and-set changed (in the
     * caller's transaction): 1, ended now; 0 with the token still in the row, this very step committed before and runs
     * again because its commit went unacknowledged (its audit row is there): false; 0 otherwise, the tracker settled
     * the VM first, from libvirt as it was before the agent carried the operation out, so the agent's newer answer
     * ({@code to} on {@code hostUuid}) is written with {@code reason}: true.
     */
    boolean endedNow(Operation op, int changed, String hostUuid, State to, String reason) {
        if (changed == 1) return true;
        if (states.held(op.vmUuid(), op.token()) == 1) return false;
        states.outcomeOverSettled(op.vmUuid(), hostUuid, to.name(), reason);
        return true;
    }

    public boolean inFlight(String vmUuid) {
        return inFlight.containsValue(vmUuid);
    }

    @Scheduled(fixedDelay = 3000)
    void renew() {
        Map<String, String> now = Map.copyOf(inFlight);
        if (now.isEmpty() || !renewing) return;
        List<String> tokens = List.copyOf(now.keySet());
        Set<String> vms = Set.copyOf(now.values());
        try {
            // retried like any unit of work: a renewal lost to a Galera conflict or a dying node is run again at once
            // (and moves the pool), not 3 s later, so a failover does not let the lease of a live operation lapse
            work.idempotent(() -> states.renewLeases(vms, tokens, until()));
        } catch (DataAccessException | TransactionException e) {
            // the database stays away: the leases lapse and the tracker settles these VMs once it is back
            log.warn("cannot renew the leases of {} VM operation(s): {}", tokens.size(), e.getMostSpecificCause().getMessage());
        }
    }
}
