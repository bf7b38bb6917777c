package org.zstack.aio.server.vm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases of the VM operations this node has in flight. A start or stop writes a lease into the VM's row and
 * this node renews it while the operation runs; a node that dies (or loses its database) stops renewing, and any
 * node's tracker may then settle the VM from what libvirt says. The set is this node's knowledge of its own work,
 * not a lock: exclusion is the database compare-and-set.
 */
@Component
public class OperationLeases {

    private static final Logger log = LoggerFactory.getLogger(OperationLeases.class);
    public static final Duration LEASE = Duration.ofSeconds(10);

    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final VmStateRepository states;
    /** false only where a test counts one operation's statements (background renewals would add theirs) */
    private final boolean renewing;

    public OperationLeases(VmStateRepository states,
                           @org.springframework.beans.factory.annotation.Value("${aio.tracker.enabled:true}") boolean renewing) {
        this.states = states;
        this.renewing = renewing;
    }

    public LocalDateTime until() {
        return LocalDateTime.now().plus(LEASE);
    }

    void begin(String vmUuid) {
        inFlight.add(vmUuid);
    }

    void end(String vmUuid) {
        inFlight.remove(vmUuid);
    }

    public boolean inFlight(String vmUuid) {
        return inFlight.contains(vmUuid);
    }

    @Scheduled(fixedDelay = 3000)
    void renew() {
        List<String> now = List.copyOf(inFlight);
        if (now.isEmpty() || !renewing) return;
        try {
            states.renewLeases(now, until());
        } catch (DataAccessException | TransactionException e) {
            // the database is away: the leases lapse and the tracker settles these VMs once it is back
            log.warn("cannot renew the leases of {} VM operation(s): {}", now.size(), e.getMostSpecificCause().getMessage());
        }
    }
}
