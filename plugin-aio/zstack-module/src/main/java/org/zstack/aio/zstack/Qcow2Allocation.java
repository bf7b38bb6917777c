package org.zstack.aio.zstack;

import org.zstack.core.config.GlobalConfig;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageGlobalConfig;
import org.zstack.storage.primary.smp.SMPConstants;
import org.zstack.storage.primary.smp.SMPPrimaryStorageGlobalConfig;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** ZStack's qcow2.allocation config of each file primary storage type (bound to PrimaryStorageVO only). */
final class Qcow2Allocation {

    private static final Map<String, GlobalConfig> BY_TYPE = new HashMap<>();

    static {
        BY_TYPE.put(LocalStorageConstants.LOCAL_STORAGE_TYPE, LocalStoragePrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        BY_TYPE.put(NfsPrimaryStorageConstant.NFS_PRIMARY_STORAGE_TYPE, NfsPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        BY_TYPE.put(SMPConstants.SMP_TYPE, SMPPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
    }

    private Qcow2Allocation() {
    }

    /** The config of this storage type, or null for a type without one (block, Ceph, unknown). */
    static GlobalConfig of(String storageType) {
        return storageType == null ? null : BY_TYPE.get(storageType);
    }

    static Collection<GlobalConfig> all() {
        return Collections.unmodifiableCollection(BY_TYPE.values());
    }
}
