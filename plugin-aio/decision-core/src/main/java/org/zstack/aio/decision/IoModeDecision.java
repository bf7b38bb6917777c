package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The decision for one volume (see docs/contract.md, "The decision"): what was asked and where it came from, the
 * mode the disk gets, every check with its sentence, one reason, and the candidate chain the agent may step down
 * when libvirt or QEMU refuse the effective mode at start.
 */
public final class IoModeDecision {

    /** The API's {@code effective} for network storage, which takes no io attribute. */
    public static final String NOT_APPLICABLE = "not-applicable";
    /** The failed check each refusal by libvirt or QEMU at start becomes ({@link #withRefusals}). */
    static final String ACCEPTED_AT_START = "accepted-at-start";

    private final String volumeUuid;
    private final String hostUuid;
    private final RequestedIoMode requested;
    private final ConfigSource source;
    private final IoMode effective;
    private final boolean applicable;
    private final boolean refused;
    private final List<Check> checks;
    private final String reason;
    /** What the candidate chain is worked out from, when first asked (a start needs it, a preview does not). */
    private final ModeChecks modeChecks;
    private final DecisionInput input;
    private volatile List<IoMode> candidates;
    /** The observed workload auto optimised for; null when the decision did not use one. */
    private final WorkloadProfile optimizedFor;

    /** A decision without candidates, with a copy of {@code checks}. */
    static IoModeDecision copying(String volumeUuid, String hostUuid, RequestedIoMode requested, ConfigSource source,
                                  IoMode effective, boolean applicable, boolean refused, List<Check> checks, String reason) {
        return new IoModeDecision(volumeUuid, hostUuid, requested, source, effective, applicable, refused,
                Collections.unmodifiableList(new ArrayList<>(checks)), reason, null, null, null);
    }

    /** The decider's own: {@code checks} is a list it made for this decision and never touches again. */
    static IoModeDecision owning(DecisionInput in, String hostUuid, IoMode effective, boolean refused, List<Check> checks,
                                 String reason, ModeChecks modeChecks) {
        return owning(in, hostUuid, effective, refused, checks, reason, modeChecks, null);
    }

    /** {@link #owning} of an auto decision that optimised for the input's observed workload (null: it did not). */
    static IoModeDecision owning(DecisionInput in, String hostUuid, IoMode effective, boolean refused, List<Check> checks,
                                 String reason, ModeChecks modeChecks, WorkloadProfile optimizedFor) {
        return new IoModeDecision(in.volume().volumeUuid(), hostUuid, in.requested(), in.source(), effective, true, refused,
                Collections.unmodifiableList(checks), reason, modeChecks, in, optimizedFor);
    }

    private IoModeDecision(String volumeUuid, String hostUuid, RequestedIoMode requested, ConfigSource source,
                           IoMode effective, boolean applicable, boolean refused, List<Check> readOnlyChecks, String reason,
                           ModeChecks modeChecks, DecisionInput input, WorkloadProfile optimizedFor) {
        this.optimizedFor = optimizedFor;
        this.volumeUuid = volumeUuid;
        this.hostUuid = hostUuid;
        this.requested = requested;
        this.source = source;
        this.effective = effective;
        this.applicable = applicable;
        this.refused = refused;
        this.checks = readOnlyChecks;
        this.reason = reason;
        this.modeChecks = modeChecks;
        this.input = input;
    }

    public String volumeUuid() { return volumeUuid; }

    public String hostUuid() { return hostUuid; }

    /** The resolved kvm/vm.ioMode. */
    public RequestedIoMode requested() { return requested; }

    /** Where the requested value came from (VolumeVO, PrimaryStorageVO, global or StorageKindDefault). */
    public ConfigSource source() { return source; }

    /** The io mode to put in {@code <driver io=...>}; null when none applies (network storage) or refused. */
    public IoMode effectiveMode() { return effective; }

    /** False for network storage, whose disks take no io attribute. */
    public boolean applicable() { return applicable; }

    /** True when onUnsatisfied=fail and the requested mode's checks failed: the VM must not start. */
    public boolean refused() { return refused; }

    /** Every check evaluated, in the order evaluated. */
    public List<Check> checks() { return checks; }

    /** The observed workload {@code auto} chose for, or null when it did not weigh one. */
    public WorkloadProfile optimizedFor() { return optimizedFor; }

    /** One sentence. */
    public String reason() { return reason; }

    /** The API's text for {@link #effectiveMode()}: the mode's name, {@value #NOT_APPLICABLE}, or null when refused. */
    public String effectiveWire() {
        return effective != null ? effective.wire() : applicable ? null : NOT_APPLICABLE;
    }

    /** Whether the effective mode is a step down from the concrete mode requested (never for auto). */
    public boolean fellBack() {
        return !refused && effective != null && requested.mode() != null && requested.mode() != effective;
    }

    /**
     * The modes the agent tries, best first: the effective mode, then (with onUnsatisfied = fallback) the later modes
     * of the preference order whose checks pass, threads always. Empty when no io attribute applies or refused.
     */
    public List<IoMode> candidates() {
        List<IoMode> c = candidates;
        if (c == null) candidates = c = chain(); // computing twice gives the same list: no lock needed
        return c;
    }

    private List<IoMode> chain() {
        if (effective == null || modeChecks == null) return Collections.emptyList();
        List<IoMode> out = new ArrayList<>(3);
        out.add(effective);
        if (input.policy().onUnsatisfied() != OnUnsatisfied.FAIL) {
            IoMode[] order = modeChecks.rules().order;
            List<Check> scratch = new ArrayList<>(8);
            for (int i = modeChecks.rules().stepDownFrom(effective); i < order.length; i++) {
                if (order[i] == IoMode.THREADS
                    || modeChecks.evaluate(order[i], input.volume(), input.host(), input.policy(), scratch)) {
                    out.add(order[i]);
                }
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The first failed check of the given mode, or null. */
    public Check firstFailure(IoMode mode) {
        for (Check c : checks) if (!c.passed() && c.isOf(mode)) return c;
        return null;
    }

    /** The first failed check of any mode, or null. */
    public Check firstFailure() {
        for (Check c : checks) if (!c.passed()) return c;
        return null;
    }

    /**
     * This decision after the start: each refusal by libvirt/QEMU becomes a failed {@code accepted-at-start} check and
     * the reason says so; {@code applied} (null: no io attribute, QEMU's threads) becomes the effective mode.
     * Unchanged when nothing was refused.
     */
    public IoModeDecision withRefusals(List<Refusal> refusals, IoMode applied) {
        if (refusals.isEmpty()) return this;
        List<Check> out = new ArrayList<>(checks.size() + refusals.size());
        out.addAll(checks);
        StringBuilder refusedBy = new StringBuilder();
        for (Refusal r : refusals) {
            out.add(new Check(r.mode().wire(), ACCEPTED_AT_START, false,
                    "libvirt/QEMU refused io=" + r.mode().wire() + " at start: " + r.error()));
            if (refusedBy.length() > 0) refusedBy.append("; ");
            refusedBy.append(r);
        }
        IoMode now = applied == null ? IoMode.THREADS : applied;
        return new IoModeDecision(volumeUuid, hostUuid, requested, source, now, true, false,
                Collections.unmodifiableList(out), reason + " At start libvirt/QEMU refused " + refusedBy + ", so " + now.wire()
                + " was applied.", modeChecks, input, optimizedFor);
    }

    /**
     * This decision as applied by an agent that could not set its effective mode: {@code applied} (what the disk
     * really gets) becomes the effective mode, a failed check {@code check} of the decided mode says why, and so does
     * the reason. Unchanged when {@code applied} is the effective mode already.
     */
    public IoModeDecision withApplied(IoMode applied, String check, String why) {
        if (applied == effective) return this;
        List<Check> out = new ArrayList<>(checks.size() + 1);
        out.addAll(checks);
        out.add(new Check(effective.wire(), check, false, why));
        String head = reason.endsWith(".") ? reason.substring(0, reason.length() - 1) : reason;
        return new IoModeDecision(volumeUuid, hostUuid, requested, source, applied, true, false,
                Collections.unmodifiableList(out), head + "; " + why + ", so the disk runs " + applied.wire() + ".",
                modeChecks, input, optimizedFor);
    }

    /** The same decision with a sentence added to its reason (e.g. that it was made for a migration's destination). */
    public IoModeDecision withNote(String note) {
        return new IoModeDecision(volumeUuid, hostUuid, requested, source, effective, applicable, refused, checks,
                reason + " " + note, modeChecks, input, optimizedFor);
    }

    /** Equal when every field the API shows is equal (the candidate chain follows from them and the rules). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IoModeDecision)) return false;
        IoModeDecision d = (IoModeDecision) o;
        return applicable == d.applicable && refused == d.refused && Objects.equals(volumeUuid, d.volumeUuid)
               && Objects.equals(hostUuid, d.hostUuid) && requested == d.requested && source == d.source
               && effective == d.effective && checks.equals(d.checks) && Objects.equals(reason, d.reason)
               && Objects.equals(optimizedFor, d.optimizedFor);
    }

    @Override
    public int hashCode() {
        return Objects.hash(volumeUuid, hostUuid, requested, source, effective, applicable, refused, checks, reason,
                optimizedFor);
    }

    @Override
    public String toString() {
        return "IoModeDecision[volumeUuid=" + volumeUuid + ", hostUuid=" + hostUuid + ", requested=" + requested
               + ", source=" + source + ", effective=" + effectiveWire() + ", refused=" + refused + ", reason=" + reason + "]";
    }
}
