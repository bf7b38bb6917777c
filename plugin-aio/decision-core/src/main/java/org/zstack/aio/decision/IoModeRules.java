package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Collection;

/**
 * The data the decision applies (conf/aio/io-mode-rules.yaml): which storage types are file, block or
 * network, which cache modes allow native, which preallocations are non-sparse, io_uring's minimum
 * versions, the preference order, known-bad combinations, the margin within which measured modes tie
 * ({@code auto} then keeps the preference order) and how benchmark cells weigh against a disk's observed workload
 * ({@link WorkloadMatch}), and the io mode each storage kind asks for when no admin chose one
 * ({@link #kindDefault(StorageKind)}).
 */
public final class IoModeRules {

    /** The margin used when the rules file names none: measured scores within 5% of the best are a tie. */
    public static final double DEFAULT_MEASURED_TIE_MARGIN = 0.05;

    private final Map<String, StorageKind> storageTypes;
    private final Set<String> nativeCacheModes;
    private final Set<String> nonSparsePreallocations;
    private final Version minKernel;
    private final Version minQemu;
    private final Version minLibvirt;
    private final List<IoMode> preference;
    private final List<KnownBadRule> knownBad;
    private final double measuredTieMargin;
    private final WorkloadMatch workloadMatch;
    private final Map<StorageKind, RequestedIoMode> kindDefaults;
    private final List<IoModeText> startRefusals;
    private final List<IoModeText> silentFallbacks;
    /** The preference and known-bad rules as arrays: the decision walks them by index, allocating nothing. */
    final IoMode[] order;
    final KnownBadRule[] bad;

    public IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                       Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                       Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad) {
        this(storageTypes, nativeCacheModes, nonSparsePreallocations, minKernel, minQemu, minLibvirt, preference, knownBad,
                DEFAULT_MEASURED_TIE_MARGIN);
    }

    public IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                       Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                       Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad,
                       double measuredTieMargin) {
        this(storageTypes, nativeCacheModes, nonSparsePreallocations, minKernel, minQemu, minLibvirt, preference, knownBad,
                measuredTieMargin, WorkloadMatch.DEFAULT);
    }

    public IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                       Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                       Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad,
                       double measuredTieMargin, WorkloadMatch workloadMatch) {
        this(storageTypes, nativeCacheModes, nonSparsePreallocations, minKernel, minQemu, minLibvirt, preference, knownBad,
                measuredTieMargin, workloadMatch, Collections.<StorageKind, RequestedIoMode>emptyMap());
    }

    /**
     * @param kindDefaults the kvm/vm.ioMode a volume of this storage kind asks for when no admin set one (on the
     *                     volume, its storage or the global value); a kind not named takes the global default
     */
    public IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                       Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                       Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad,
                       double measuredTieMargin, WorkloadMatch workloadMatch,
                       Map<StorageKind, RequestedIoMode> kindDefaults) {
        this.storageTypes = Collections.unmodifiableMap(new LinkedHashMap<>(noNulls(storageTypes, "storageTypes")));
        this.nativeCacheModes = Collections.unmodifiableSet(new LinkedHashSet<>(noNulls(nativeCacheModes, "nativeCacheModes")));
        this.nonSparsePreallocations = Collections.unmodifiableSet(
                new LinkedHashSet<>(noNulls(nonSparsePreallocations, "nonSparsePreallocations")));
        this.minKernel = minKernel;
        this.minQemu = minQemu;
        this.minLibvirt = minLibvirt;
        this.preference = Collections.unmodifiableList(new ArrayList<>(noNulls(preference, "preference")));
        this.knownBad = Collections.unmodifiableList(new ArrayList<>(noNulls(knownBad, "knownBad")));
        this.measuredTieMargin = measuredTieMargin;
        this.workloadMatch = Objects.requireNonNull(workloadMatch, "workloadMatch");
        Map<StorageKind, RequestedIoMode> defaults = new EnumMap<>(StorageKind.class);
        for (Map.Entry<StorageKind, RequestedIoMode> e : Objects.requireNonNull(kindDefaults, "kindDefaults").entrySet()) {
            defaults.put(Objects.requireNonNull(e.getKey(), "kindDefaults holds null"),
                    Objects.requireNonNull(e.getValue(), "kindDefaults holds null"));
        }
        // network storage takes no io attribute (QEMU's own driver): a default there would never reach a disk
        if (defaults.containsKey(StorageKind.NETWORK)) {
            throw new IllegalArgumentException("storageKindDefaults: network storage takes no io attribute, so it has no"
                                               + " default mode");
        }
        this.kindDefaults = Collections.unmodifiableMap(defaults);
        this.startRefusals = Collections.emptyList();
        this.silentFallbacks = Collections.emptyList();
        this.order = this.preference.toArray(new IoMode[0]);
        this.bad = this.knownBad.toArray(new KnownBadRule[0]);
        if (this.preference.isEmpty() || this.preference.get(this.preference.size() - 1) != IoMode.THREADS) {
            throw new IllegalArgumentException("preference must end with threads, the mode that always works");
        }
        // a chain may leave a mode out (never fall back to it), but not name one twice
        if (EnumSet.copyOf(this.preference).size() != this.preference.size()) {
            throw new IllegalArgumentException("preference must name each mode at most once, was " + this.preference);
        }
        if (!(measuredTieMargin >= 0 && measuredTieMargin < 1)) {
            throw new IllegalArgumentException("measuredTieMargin must be in [0, 1): " + measuredTieMargin);
        }
    }

    /** These rules with libvirt's and QEMU's words for a refused mode and for a silent fallback. */
    private IoModeRules(IoModeRules r, List<IoModeText> startRefusals, List<IoModeText> silentFallbacks) {
        this.storageTypes = r.storageTypes;
        this.nativeCacheModes = r.nativeCacheModes;
        this.nonSparsePreallocations = r.nonSparsePreallocations;
        this.minKernel = r.minKernel;
        this.minQemu = r.minQemu;
        this.minLibvirt = r.minLibvirt;
        this.preference = r.preference;
        this.knownBad = r.knownBad;
        this.measuredTieMargin = r.measuredTieMargin;
        this.workloadMatch = r.workloadMatch;
        this.kindDefaults = r.kindDefaults;
        this.order = r.order;
        this.bad = r.bad;
        this.startRefusals = Collections.unmodifiableList(new ArrayList<>(noNulls(startRefusals, "startRefusals")));
        this.silentFallbacks = Collections.unmodifiableList(new ArrayList<>(noNulls(silentFallbacks, "silentFallbacks")));
    }

    /**
     * The same rules with the words libvirt and QEMU refuse a mode with at a VM's start ({@code startRefusals}) and
     * QEMU's warnings that a disk fell back to its thread pool ({@code silentFallbacks}).
     *
     * @throws IllegalArgumentException when an id is used twice
     */
    public IoModeRules withTexts(List<IoModeText> startRefusals, List<IoModeText> silentFallbacks) {
        Set<String> ids = new java.util.HashSet<>();
        for (IoModeText t : noNulls(startRefusals, "startRefusals")) {
            if (!ids.add(t.id())) throw new IllegalArgumentException("startRefusals: id " + t.id() + " is used twice");
        }
        for (IoModeText t : noNulls(silentFallbacks, "silentFallbacks")) {
            if (!ids.add(t.id())) throw new IllegalArgumentException("silentFallbacks: id " + t.id() + " is used twice");
        }
        return new IoModeRules(this, startRefusals, silentFallbacks);
    }

    /** libvirt's and QEMU's words when they refuse a disk's io mode at a VM's start (empty: none known). */
    public List<IoModeText> startRefusals() { return startRefusals; }

    /** QEMU's warnings, in a VM's log, that a disk runs its thread pool instead of its io mode (empty: none known). */
    public List<IoModeText> silentFallbacks() { return silentFallbacks; }

    private static <T extends Collection<?>> T noNulls(T c, String what) {
        Objects.requireNonNull(c, what);
        for (Object o : c) Objects.requireNonNull(o, what + " holds null");
        return c;
    }

    private static Map<String, StorageKind> noNulls(Map<String, StorageKind> m, String what) {
        Objects.requireNonNull(m, what);
        for (Map.Entry<String, StorageKind> e : m.entrySet()) {
            Objects.requireNonNull(e.getKey(), what + " holds null");
            Objects.requireNonNull(e.getValue(), what + " holds null");
        }
        return m;
    }

    public Map<String, StorageKind> storageTypes() { return storageTypes; }

    public Set<String> nativeCacheModes() { return nativeCacheModes; }

    public Set<String> nonSparsePreallocations() { return nonSparsePreallocations; }

    public Version minKernel() { return minKernel; }

    public Version minQemu() { return minQemu; }

    public Version minLibvirt() { return minLibvirt; }

    /** The preference order for auto and the fallback chain, best first; always ends with threads. */
    public List<IoMode> preference() { return preference; }

    public List<KnownBadRule> knownBad() { return knownBad; }

    public double measuredTieMargin() { return measuredTieMargin; }

    /** How auto weighs the benchmark's cells against a disk's observed workload. */
    public WorkloadMatch workloadMatch() { return workloadMatch; }

    /** Each storage kind's default mode (kinds not named take the global default). */
    public Map<StorageKind, RequestedIoMode> kindDefaults() { return kindDefaults; }

    /**
     * The kvm/vm.ioMode a volume of this kind asks for when no admin chose one, or null when the kind takes the
     * global default. It replaces the global config's default value for that kind, so an admin's value at any level
     * still wins.
     */
    public RequestedIoMode kindDefault(StorageKind kind) {
        return kindDefaults.get(kind);
    }

    /** The kind of a storage type; an unknown type is treated as file, the cautious choice. */
    public StorageKind kindOf(String storageType) {
        StorageKind k = storageType == null ? null : storageTypes.get(storageType);
        return k == null ? StorageKind.FILE : k;
    }

    /**
     * Where in {@link #order} a step down from {@code from} starts: the next mode of the preference order; a mode the
     * order leaves out steps straight down to threads (the last), never up.
     */
    int stepDownFrom(IoMode from) {
        for (int i = 0; i < order.length; i++) if (order[i] == from) return i + 1;
        return order.length - 1;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IoModeRules)) return false;
        IoModeRules r = (IoModeRules) o;
        return storageTypes.equals(r.storageTypes) && nativeCacheModes.equals(r.nativeCacheModes)
               && nonSparsePreallocations.equals(r.nonSparsePreallocations) && Objects.equals(minKernel, r.minKernel)
               && Objects.equals(minQemu, r.minQemu) && Objects.equals(minLibvirt, r.minLibvirt)
               && preference.equals(r.preference) && knownBad.equals(r.knownBad)
               && measuredTieMargin == r.measuredTieMargin && workloadMatch.equals(r.workloadMatch)
               && kindDefaults.equals(r.kindDefaults) && startRefusals.equals(r.startRefusals)
               && silentFallbacks.equals(r.silentFallbacks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(storageTypes, nativeCacheModes, nonSparsePreallocations, minKernel, minQemu, minLibvirt,
                preference, knownBad, measuredTieMargin, workloadMatch, kindDefaults, startRefusals, silentFallbacks);
    }

    @Override
    public String toString() {
        return "IoModeRules[storageTypes=" + storageTypes + ", kindDefaults=" + kindDefaults + ", preference=" + preference
               + ", knownBad=" + knownBad + "]";
    }
}
