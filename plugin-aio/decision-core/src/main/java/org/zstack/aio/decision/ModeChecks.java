package org.zstack.aio.decision;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The preconditions of each io mode, evaluated against the facts. Pure: no I/O, no state. */
final class ModeChecks {

    /** The check of a mode libvirt or QEMU refused at a start on the volume's host × storage, remembered until cleared. */
    static final String REMEMBERED_REFUSAL = "remembered-refusal";

    /**
     * The name of every check this class writes apart from the known-bad rules' ({@code known-bad:<id>}): what a
     * dashboard may group failures by ({@link IoModeDecider#checkNames()}). IoModeDecisionProperties proves that no
     * decision holds a check outside them.
     */
    static final List<String> NAMES = Collections.unmodifiableList(Arrays.asList("cache-mode", "non-sparse-image", "host-facts", "kernel-version",
            "io_uring-sysctl", "qemu-version", "qemu-io_uring-support", "libvirt-version", REMEMBERED_REFUSAL));

    private final IoModeRules rules;

    ModeChecks(IoModeRules rules) {
        this.rules = rules;
    }

    IoModeRules rules() {
        return rules;
    }

    /** Appends the checks of {@code mode} to {@code out}; returns true when all of them passed. */
    boolean evaluate(IoMode mode, VolumeFacts v, HostFacts h, DecisionPolicy p, List<Check> out) {
        switch (mode) {
            case THREADS: return true; // a thread pool works with every cache mode, image and host
            case NATIVE: return nativeChecks(v, h, p, out);
            case IO_URING: return ioUringChecks(v, h, rules.kindOf(v.storageType()), out);
            default: throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    /**
     * Appends the checks of {@code mode} that depend on the host alone (none for threads and native beyond known-bad
     * rules without a storage condition); returns true when all of them passed.
     */
    boolean evaluateHost(IoMode mode, HostFacts h, List<Check> out) {
        switch (mode) {
            case THREADS: return true;
            case NATIVE: return knownBad(IoMode.NATIVE, null, null, h, out);
            case IO_URING: return ioUringChecks(null, h, null, out);
            default: throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private boolean nativeChecks(VolumeFacts v, HostFacts h, DecisionPolicy p, List<Check> out) {
        String m = IoMode.NATIVE.wire();
        String cache = v.cacheMode();
        // Set.copyOf(...).contains(null) throws: an unknown cache mode is a failed check, not a crash
        boolean direct = cache != null && rules.nativeCacheModes().contains(cache);
        boolean ok = add(out, m, "cache-mode", direct, direct
                        ? "cache mode " + cache + " opens the image with O_DIRECT, as native AIO requires."
                        : cache == null
                        ? "the volume's cache mode is unknown, so O_DIRECT, which QEMU needs for aio=native, is not assured;"
                          + " set kvm/vm.cacheMode to none or directsync for this volume."
                        : "cache mode " + cache + " goes through the host page cache and QEMU refuses aio=native"
                          + " without O_DIRECT; set kvm/vm.cacheMode to none or directsync for this volume.");
        StorageKind kind = rules.kindOf(v.storageType());
        ok &= nonSparse(v, kind, p, out);
        ok &= knownBad(IoMode.NATIVE, v, kind, h, out);
        ok &= notRefused(IoMode.NATIVE, v, out);
        return ok;
    }

    /**
     * A mode refused at a start on this host × storage and remembered: the check appears only then, and fails, with
     * the sentence the platform's record of the refusal gives (when, what refused it, how it is cleared).
     */
    private static boolean notRefused(IoMode mode, VolumeFacts v, List<Check> out) {
        String why = v == null ? null : v.refusedModes().get(mode);
        return why == null || add(out, mode.wire(), REMEMBERED_REFUSAL, false, why);
    }

    private boolean nonSparse(VolumeFacts v, StorageKind kind, DecisionPolicy p, List<Check> out) {
        String m = IoMode.NATIVE.wire();
        if (kind == StorageKind.BLOCK) {
            return add(out, m, "non-sparse-image", true,
                    v.storageType() + " volumes are block devices with no filesystem, so native AIO cannot stall on"
                    + " filesystem metadata updates.");
        }
        String prealloc = v.preallocation() == null ? "none" : v.preallocation();
        if (v.allocationMeasured() && v.actualSize() < v.virtualSize()) {
            return add(out, m, "non-sparse-image", false,
                    "the image is sparse (" + v.actualSize() + " of " + v.virtualSize() + " bytes allocated, preallocation "
                    + prealloc + "): native AIO on a sparse file can block the whole VM while the filesystem allocates"
                    + " blocks; create the volume with preallocation full.");
        }
        String figures = v.allocationMeasured()
                ? " (measured: " + v.actualSize() + " of " + v.virtualSize() + " bytes allocated)" : "";
        if (rules.nonSparsePreallocations().contains(prealloc)) {
            return add(out, m, "non-sparse-image", true,
                    "preallocation " + prealloc + figures + " leaves no hole in the image, so native AIO cannot stall on"
                    + " allocation.");
        }
        if ("falloc".equals(prealloc)) {
            return add(out, m, "non-sparse-image", p.allowFalloc(), p.allowFalloc()
                    ? "preallocation falloc" + figures + " counts as non-sparse because kvm/vm.ioMode.native.allowFalloc"
                      + " is true."
                    : "preallocation falloc" + figures + " leaves unwritten extents whose first write updates filesystem"
                      + " metadata; preallocate full, or set kvm/vm.ioMode.native.allowFalloc=true on this primary storage.");
        }
        if ("raw".equals(v.format()) && v.allocationMeasured()) {
            return add(out, m, "non-sparse-image", true,
                    "the raw image is measured fully allocated (" + v.actualSize() + " of " + v.virtualSize() + " bytes allocated).");
        }
        return add(out, m, "non-sparse-image", false,
                "preallocation " + prealloc + " on " + v.storageType() + figures + " leaves the image sparse: native AIO on"
                + " a sparse file can block the whole VM while the filesystem allocates blocks; create the volume with"
                + " preallocation full.");
    }

    /** io_uring's checks on host {@code h} for storage of {@code kind} (null: the host alone). */
    private boolean ioUringChecks(VolumeFacts v, HostFacts h, StorageKind kind, List<Check> out) {
        String m = IoMode.IO_URING.wire();
        if (h == null) {
            return add(out, m, "host-facts", false,
                    "the volume is on no known host, so io_uring support cannot be checked; attach it to a VM on a"
                    + " connected host.");
        }
        boolean ok = atLeast(out, "kernel-version", "host kernel", h.kernel(), rules.minKernel());
        Integer disabled = h.ioUringDisabled();
        ok &= add(out, m, "io_uring-sysctl", disabled == null || disabled == 0, disabled == null
                ? "kernel.io_uring_disabled is absent (kernel older than 6.6), so io_uring is not switched off."
                : disabled == 0 ? "kernel.io_uring_disabled is 0: io_uring is enabled."
                : "kernel.io_uring_disabled is " + disabled + (disabled == 1
                        ? ": only members of kernel.io_uring_group may use io_uring, QEMU is not one"
                        : ": io_uring is switched off for every process") + "; set it to 0 with sysctl to allow io_uring.");
        ok &= atLeast(out, "qemu-version", "QEMU", h.qemu(), rules.minQemu());
        Boolean built = h.qemuIoUring();
        ok &= add(out, m, "qemu-io_uring-support", Boolean.TRUE.equals(built), built == null
                ? "this QEMU's io_uring support was not probed; reconnect the host to probe it."
                : built ? "QEMU opened a test image with aio=io_uring on this host."
                : "QEMU on this host refused aio=io_uring (built without liburing, or blocked); install a QEMU built with io_uring.");
        ok &= atLeast(out, "libvirt-version", "libvirt", h.libvirt(), rules.minLibvirt());
        ok &= knownBad(IoMode.IO_URING, v, kind, h, out);
        ok &= notRefused(IoMode.IO_URING, v, out);
        return ok;
    }

    private boolean atLeast(List<Check> out, String check, String what, Version have, Version need) {
        String m = IoMode.IO_URING.wire();
        if (have == null) {
            return add(out, m, check, false, what + " version is unknown; io_uring needs " + need + " or newer;"
                                               + " reconnect the host to probe it.");
        }
        boolean ok = have.atLeast(need);
        return add(out, m, check, ok, ok
                ? what + " " + have + " is at least " + need + "."
                : what + " " + have + " is older than " + need + ", which io_uring needs; upgrade " + what + ".");
    }

    private boolean knownBad(IoMode mode, VolumeFacts v, StorageKind kind, HostFacts host, List<Check> out) {
        boolean ok = true;
        KnownBadRule[] bad = rules.bad;
        for (int i = 0; i < bad.length; i++) {
            KnownBadRule r = bad[i];
            if (r.matches(mode, v, kind, host)) {
                ok = add(out, mode.wire(), IoModeDecider.KNOWN_BAD_PREFIX + r.id(), false, r.message()
                        + (r.source() == null ? "." : " (source: " + r.source() + ")."));
            }
        }
        return ok;
    }

    private static boolean add(List<Check> out, String mode, String check, boolean passed, String message) {
        out.add(new Check(mode, check, passed, message));
        return passed;
    }
}
