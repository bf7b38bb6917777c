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
    record Row(String uuid, State state, long version, LocalDateTime leaseUntil, String migrateHostUuid) {
        Row(String uuid, State state, long version, LocalDateTime leaseUntil) {
            this(uuid, state, version, leaseUntil, null);
        }
    }

    /** Move the VM at {@code version} to {@code to}, recording why; {@code hostUuid} non-null: it is (now) on that host. */
    record Change(String uuid, long version, State to, String reason, String hostUuid) {
        Change(String uuid, long version, State to, String reason) {
            this(uuid, version, to, reason, null);
        }
    }

    private Reconciler() {
    }

    /**
     * @param domains      the agent's managed domains by VM uuid (a VM without one has no domain on the host)
     * @param inFlightHere operations this node runs now (their own outcome settles them)
     */
    static List<Change> reconcile(String hostUuid, List<Row> rows, Map<String, VmListRsp.Domain> domains,
                                  LocalDateTime now, Predicate<String> inFlightHere) {
        return reconcile(hostUuid, rows, domains, Map.of(), now, inFlightHere);
    }

    /**
     * @param destinations for VMs whose migration was interrupted: the domains of each destination host that
     *                     answered, by host uuid (a destination absent here did not answer)
     */
    static List<Change> reconcile(String hostUuid, List<Row> rows, Map<String, VmListRsp.Domain> domains,
                                  Map<String, Map<String, VmListRsp.Domain>> destinations,
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
                    if (r.migrateHostUuid() != null) {
                        Change c = settleMigration(hostUuid, r, active, seen, destinations.get(r.migrateHostUuid()));
                        if (c != null) out.add(c);
                        continue;
                    }
                    State to = active ? State.Running : State.Stopped;
                    String why = r.state() == State.Unknown ? "settled from Unknown" : "settled after an interrupted "
                            + r.state() + " (the node doing it stopped or lost the database)";
                    out.add(new Change(r.uuid(), r.version(), to, why + ": libvirt on host " + hostUuid + " has " + seen + "."));
                }
            }
        }
        return out;
    }

    /**
     * A migration whose node stopped: the domain runs on the source (libvirt aborted or never switched over), on the
     * destination (it completed), or nowhere. Which one is asked of libvirt on both hosts; a destination that does
     * not answer leaves it Unknown (still naming the destination) when the source has no running domain.
     */
    private static Change settleMigration(String hostUuid, Row r, boolean activeHere, String seen,
                                          Map<String, VmListRsp.Domain> atDestination) {
        String dest = r.migrateHostUuid();
        String why = "settled after an interrupted migration to host " + dest + ": ";
        if (activeHere) {
            return new Change(r.uuid(), r.version(), State.Running, why + "libvirt on the source host " + hostUuid
                    + " still runs it.", hostUuid);
        }
        if (atDestination == null) {
            if (r.state() == State.Unknown) return null;
            return new Change(r.uuid(), r.version(), State.Unknown, "interrupted migration to host " + dest + ": the "
                    + "source host " + hostUuid + " has " + seen + " and the destination does not answer.");
        }
        VmListRsp.Domain there = atDestination.get(r.uuid());
        if (there != null && there.active()) {
            return new Change(r.uuid(), r.version(), State.Running, why + "libvirt on the destination runs it.", dest);
        }
        return new Change(r.uuid(), r.version(), State.Stopped, why + "neither host runs it (source: " + seen
                + ", destination: " + (there == null ? "no domain" : "domain " + there.state()) + ").", hostUuid);
    }
}
