package org.zstack.aio.decision;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The data the decision applies (conf/aio/io-mode-rules.yaml): which storage types are file, block or
 * network, which cache modes allow native, which preallocations are non-sparse, io_uring's minimum
 * versions, the preference order and known-bad combinations.
 */
public record IoModeRules(Map<String, StorageKind> storageTypes, Set<String> nativeCacheModes,
                          Set<String> nonSparsePreallocations, Version minKernel, Version minQemu,
                          Version minLibvirt, List<IoMode> preference, List<KnownBadRule> knownBad) {

    public IoModeRules {
        storageTypes = Map.copyOf(storageTypes);
        nativeCacheModes = Set.copyOf(nativeCacheModes);
        nonSparsePreallocations = Set.copyOf(nonSparsePreallocations);
        preference = List.copyOf(preference);
        knownBad = List.copyOf(knownBad);
        if (preference.isEmpty() || preference.get(preference.size() - 1) != IoMode.THREADS) {
            throw new IllegalArgumentException("preference must end with threads, the mode that always works");
        }
    }

    /** The kind of a storage type; an unknown type is treated as file, the cautious choice. */
    public StorageKind kindOf(String storageType) {
        StorageKind k = storageType == null ? null : storageTypes.get(storageType);
        return k == null ? StorageKind.FILE : k;
    }
}
