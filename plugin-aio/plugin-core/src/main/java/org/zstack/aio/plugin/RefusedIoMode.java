package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An io mode libvirt or QEMU refused at a VM's start on a host × primary storage, remembered as a fact of that
 * host's storage path ({@link StorageIoFacts#getRefused()}): no later start tries the mode there until it is cleared,
 * by an admin (the platform's refusal API), or by what {@link #getClearedBy()} names besides. Part of the one
 * host-facts contract, so both APIs show it (SDK class {@code org.zstack.sdk.RefusedIoModeInventory}). JavaBean
 * getters, so Jackson and ZStack's Gson write the same names.
 */
public final class RefusedIoMode {

    /** Any refusal: an admin clears it with the platform's refusal API. */
    public static final String CLEARED_BY_ADMIN = "admin";
    /** A host probe that reports another QEMU or libvirt version than {@link #getQemu()} / {@link #getLibvirt()}. */
    public static final String CLEARED_BY_VERSION_CHANGE = "versionChange";
    /** A read-back that finds a disk on this host × storage running the mode as libvirt's QEMU opened it. */
    public static final String CLEARED_BY_READ_BACK = "readBack";

    private final String hostUuid;
    private final String primaryStorageUuid;
    private final String mode;
    private final String refusalId;
    private final String by;
    private final String text;
    private final String volumeUuid;
    private final String vmInstanceUuid;
    private final String refusedAt;
    private final String qemu;
    private final String libvirt;
    private final List<String> clearedBy;

    /**
     * @param refusalId the id of the words in conf/aio/io-mode-rules.yaml's startRefusals
     * @param by        QEMU or libvirt
     * @param text      what they said, as the start's error has it (the words and the rest of their line)
     * @param qemu      the host's QEMU version when it refused (null: unknown)
     * @param libvirt   the host's libvirt version when it refused (null: unknown)
     * @param clearedBy what clears it: always {@value #CLEARED_BY_ADMIN}, and what the words' row names
     */
    public RefusedIoMode(String hostUuid, String primaryStorageUuid, String mode, String refusalId, String by, String text,
                         String volumeUuid, String vmInstanceUuid, String refusedAt, String qemu, String libvirt,
                         List<String> clearedBy) {
        this.hostUuid = hostUuid;
        this.primaryStorageUuid = primaryStorageUuid;
        this.mode = mode;
        this.refusalId = refusalId;
        this.by = by;
        this.text = text;
        this.volumeUuid = volumeUuid;
        this.vmInstanceUuid = vmInstanceUuid;
        this.refusedAt = refusedAt;
        this.qemu = qemu;
        this.libvirt = libvirt;
        this.clearedBy = clearedBy == null ? Collections.<String>emptyList()
                : Collections.unmodifiableList(new ArrayList<String>(clearedBy));
    }

    public String getHostUuid() { return hostUuid; }
    public String getPrimaryStorageUuid() { return primaryStorageUuid; }
    /** native or io_uring */
    public String getMode() { return mode; }
    /** the id of the words in conf/aio/io-mode-rules.yaml (startRefusals) */
    public String getRefusalId() { return refusalId; }
    /** QEMU or libvirt */
    public String getBy() { return by; }
    /** what they said */
    public String getText() { return text; }
    /** the volume whose start showed it */
    public String getVolumeUuid() { return volumeUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    /** ISO-8601 UTC */
    public String getRefusedAt() { return refusedAt; }
    /** the host's QEMU version when it refused; null: unknown */
    public String getQemu() { return qemu; }
    /** the host's libvirt version when it refused; null: unknown */
    public String getLibvirt() { return libvirt; }
    /** admin, and versionChange and/or readBack where the words' row says so */
    public List<String> getClearedBy() { return clearedBy; }

    /** Whether {@code how} ({@link #CLEARED_BY_VERSION_CHANGE}, {@link #CLEARED_BY_READ_BACK}) clears this refusal. */
    public boolean clearedBy(String how) { return clearedBy.contains(how); }

    /**
     * Whether a host probe that found {@code probed} clears this refusal: it is one of the build
     * ({@value #CLEARED_BY_VERSION_CHANGE}) and the probe reports another QEMU or libvirt version than the refusal was
     * seen with. Unknown versions, on either side, clear nothing.
     */
    public boolean clearedByProbe(HostIoFacts probed) {
        if (!clearedBy(CLEARED_BY_VERSION_CHANGE) || probed == null) return false;
        return changed(qemu, probed.getQemu()) || changed(libvirt, probed.getLibvirt());
    }

    private static boolean changed(String then, String now) {
        return then != null && now != null && !then.equals(now);
    }

    /** Why a probe cleared it, for the platform's log and event. */
    public String clearedByProbeSentence(HostIoFacts probed) {
        return "the refusal of " + mode + " on host " + hostUuid + " and primary storage " + primaryStorageUuid + " by " + by
               + " (" + refusalId + ", QEMU " + qemu + ", libvirt " + libvirt + ") is cleared: the host now runs QEMU "
               + probed.getQemu() + " and libvirt " + probed.getLibvirt();
    }

    /**
     * The sentence of the decision's failed {@code remembered-refusal} check: when, what refused the mode and how it
     * is cleared.
     */
    String checkSentence() {
        StringBuilder s = new StringBuilder(by).append(" refused ").append(mode).append(" for volume ").append(volumeUuid)
                .append(" at a start on this host (").append(refusedAt);
        if (qemu != null) s.append(", QEMU ").append(qemu);
        if (libvirt != null) s.append(", libvirt ").append(libvirt);
        s.append("): \"").append(text).append("\"; it is remembered for this host and primary storage ")
                .append(primaryStorageUuid).append(" until ").append(howCleared());
        return s.toString();
    }

    /** "an admin clears it, or a host probe reports another QEMU or libvirt version" and the like. */
    String howCleared() {
        StringBuilder s = new StringBuilder("an admin clears it");
        if (clearedBy(CLEARED_BY_VERSION_CHANGE)) s.append(", or a host probe reports another QEMU or libvirt version");
        if (clearedBy(CLEARED_BY_READ_BACK)) s.append(", or a read-back finds a disk here running ").append(mode);
        return s.toString();
    }

    @Override
    public String toString() {
        return "RefusedIoMode[" + hostUuid + " x " + primaryStorageUuid + ": " + mode + " by " + by + " (" + refusalId + ")]";
    }
}
