package org.zstack.aio.server.tracker;

import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.server.inventory.VmInstanceVO.State;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the database must say about a host's VMs given what libvirt says: pure (rows and domains in, changes out).
 * The tracker never stops or starts a domain: a VM found running is adopted; only records change.
 */
final class Reconciler {

    /** A VM row as read before libvirt was asked (its version makes the change a compare-and-set). */
    record Row(String uuid, State state, long version, LocalDateTime leaseUntil) {
    }

    /** Move the VM at {@code version} to {@code to}, recording why. */
    record Change(String uuid, long version, State to, String reason) {
    }

    private Reconciler() {
    }

    /**
     * @param domains      the agent's managed domains by VM uuid (a VM without one has no domain on the host)
     * @param inFlightHere operations this node runs now (their own outcome settles them)
     */
    static List<Change> reconcile(String hostUuid, List<Row> rows, Map<String, VmListRsp.Domain> domains,
                                  LocalDateTime now, Predicate<String> inFlightHere) {
        List<Change> out = new ArrayList<>();
        for (Row r : rows) {
            VmListRsp.Domain d = domains.get(r.uuid());
            boolean active = d != null && d.active();
            String seen = d == null ? "no domain" : "domain " + d.state();
            switch (r.state()) {
                case Running -> {
                    if (!active) out.add(new Change(r.uuid(), r.version(), State.Stopped, "libvirt on host " + hostUuid
                            + " has " + seen + " for this VM: it was stopped outside the platform, crashed, or the host restarted."));
                }
                case Stopped -> {
                    if (active) out.add(new Change(r.uuid(), r.version(), State.Running, "adopted: libvirt on host " + hostUuid
                            + " runs this VM although it was recorded Stopped; it was left running."));
                }
                case Starting, Stopping, Migrating, Unknown -> {
                    boolean leased = r.leaseUntil() != null && r.leaseUntil().isAfter(now);
                    if (leased || inFlightHere.test(r.uuid())) continue;
                    State to = active ? State.Running : State.Stopped;
                    String why = r.state() == State.Unknown ? "settled from Unknown" : "settled after an interrupted "
                            + r.state() + " (the node doing it stopped or lost the database)";
                    out.add(new Change(r.uuid(), r.version(), to, why + ": libvirt on host " + hostUuid + " has " + seen + "."));
                }
            }
        }
        return out;
    }
}
