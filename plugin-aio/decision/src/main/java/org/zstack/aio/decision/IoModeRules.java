package org.zstack.aio.decision;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The data the decision applies (conf/aio/io-mode-rules.yaml): which storage types are file, block or
 * network, which cache modes allow native, which preallocations are non-sparse, io_uring's minimum
 * versions, the preference order, known-bad combinations and the margin within which measured modes tie
 * ({@code auto} then keeps the preference order).
 */
public record IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                          Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                          Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad,
                          double measuredTieMargin) {

    /** The margin used when the rules file names none: measured scores within 5% of the best are a tie. */
    public static final double DEFAULT_MEASURED_TIE_MARGIN = 0.05;

    public IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                       Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                       Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad) {
        this(storageTypes, nativeCacheModes, nonSparsePreallocations, minKernel, minQemu, minLibvirt, preference, knownBad,
                DEFAULT_MEASURED_TIE_MARGIN);
    }

    public IoModeRules {
        storageTypes = Map.copyOf(storageTypes);
        nativeCacheModes = Set.copyOf(nativeCacheModes);
        nonSparsePreallocations = Set.copyOf(nonSparsePreallocations);
        preference = List.copyOf(preference);
        knownBad = List.copyOf(knownBad);
        if (preference.isEmpty() || preference.get(preference.size() - 1) != IoMode.THREADS) {
            throw new IllegalArgumentException("preference must end with threads, the mode that always works");
        }
        // a chain may leave a mode out (never fall back to it), but not name one twice
        if (new java.util.HashSet<>(preference).size() != preference.size()) {
            throw new IllegalArgumentException("preference must name each mode at most once, was " + preference);
        }
        if (!(measuredTieMargin >= 0 && measuredTieMargin < 1)) {
            throw new IllegalArgumentException("measuredTieMargin must be in [0, 1): " + measuredTieMargin);
        }
    }

    /** The kind of a storage type; an unknown type is treated as file, the cautious choice. */
    public StorageKind kindOf(String storageType) {
        StorageKind k = storageType == null ? null : storageTypes.get(storageType);
        return k == null ? StorageKind.FILE : k;
    }
}
