package org.zstack.aio.zstack;

import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.HostIoProbe;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.Q;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.header.storage.primary.PrimaryStorageVO_;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.KVMConstant;
import org.zstack.kvm.KVMSystemTags;
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO;
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO_;
import org.zstack.resourceconfig.ResourceConfigFacade;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageGlobalConfig;
import org.zstack.storage.primary.smp.SMPConstants;
import org.zstack.storage.primary.smp.SMPPrimaryStorageGlobalConfig;

import javax.persistence.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The facts ZStack has about volumes and hosts, as the decision core wants them. A fixed number of queries for any
 * number of volumes: primary storage types (1), qcow2 allocation per file storage type in use (at most 3), the host's
 * probe (1), its QEMU (KvmHypervisorInfoVO, 1) and its version tags (2).
 *
 * The host's kernel, kernel.io_uring_disabled and whether QEMU opens an image with io_uring come from plugin-aio's
 * host probe, run at every connect ({@link AioHostIoFactsFlow}); a host never probed has them unknown, and io_uring's
 * checks say so. A volume's preallocation is the qcow2 allocation policy of its primary storage, and its measured
 * allocation its own actualSize against its size: the decision core takes the more cautious of the two.
 */
final class VolumeFactsReader {

    private static final String QCOW2 = "qcow2";

    /** primary storage type -> ZStack's qcow2.allocation config of that type (bound to PrimaryStorageVO) */
    private static final Map<String, GlobalConfig> ALLOCATION_CONFIGS = new HashMap<>();

    static {
        ALLOCATION_CONFIGS.put(LocalStorageConstants.LOCAL_STORAGE_TYPE, LocalStoragePrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        ALLOCATION_CONFIGS.put(NfsPrimaryStorageConstant.NFS_PRIMARY_STORAGE_TYPE, NfsPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        ALLOCATION_CONFIGS.put(SMPConstants.SMP_TYPE, SMPPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
    }

    private final ResourceConfigFacade resourceConfigs;
    private final HostIoFactsStore probes;

    VolumeFactsReader(ResourceConfigFacade resourceConfigs, HostIoFactsStore probes) {
        this.resourceConfigs = resourceConfigs;
        this.probes = probes;
    }

    /**
     * @param cacheModes volume uuid -> the cache mode ZStack resolved for it (the VolumeTO's cacheMode)
     * @return volume uuid -> facts, in the order given
     */
    Map<String, VolumeFacts> volumes(List<VolumeInventory> volumes, Map<String, String> cacheModes) {
        Map<String, String> psTypes = primaryStorageTypes(volumes);
        Map<String, String> allocation = allocationPolicies(psTypes);
        Map<String, VolumeFacts> out = new LinkedHashMap<>();
        for (VolumeInventory v : volumes) {
            String psType = psTypes.get(v.getPrimaryStorageUuid());
            String prealloc = QCOW2.equals(v.getFormat()) ? allocation.get(v.getPrimaryStorageUuid()) : null;
            out.put(v.getUuid(), new VolumeFacts(v.getUuid(), psType, v.getFormat(), prealloc, v.getSize(),
                    measured(v.getActualSize()), cacheModes.get(v.getUuid())));
        }
        return out;
    }

    /** The primary storage type of one volume (for validation outside a VM start). */
    String primaryStorageType(String primaryStorageUuid) {
        return Q.New(PrimaryStorageVO.class).select(PrimaryStorageVO_.type)
                .eq(PrimaryStorageVO_.uuid, primaryStorageUuid).findValue();
    }

    HostFacts host(String hostUuid) {
        return probe(hostUuid, probes.find(hostUuid)).facts();
    }

    /** What the host's agent applies, from its last probe's {@code kvmagent_patch=} (one query). */
    AgentProfile agent(String hostUuid) {
        HostIoFactsStore.Probed row = probes.find(hostUuid);
        return AgentProfile.zstack(row == null ? null
                : HostIoProbe.read(hostUuid, row.output, row.failure, null, null).kvmagentPatch());
    }

    /** The host's facts read from its last probe ({@code row}, null: never probed) and ZStack's own records. */
    HostIoProbe probe(String hostUuid, HostIoFactsStore.Probed row) {
        String qemu = Q.New(KvmHypervisorInfoVO.class).select(KvmHypervisorInfoVO_.version)
                .eq(KvmHypervisorInfoVO_.uuid, hostUuid).eq(KvmHypervisorInfoVO_.hypervisor, KVMConstant.VIRTUALIZER_QEMU_KVM)
                .findValue();
        if (qemu == null) {
            qemu = KVMSystemTags.QEMU_IMG_VERSION.getTokenByResourceUuid(hostUuid, KVMSystemTags.QEMU_IMG_VERSION_TOKEN);
        }
        String libvirt = KVMSystemTags.LIBVIRT_VERSION.getTokenByResourceUuid(hostUuid, KVMSystemTags.LIBVIRT_VERSION_TOKEN);
        return HostIoProbe.read(hostUuid, row == null ? null : row.output, row == null ? null : row.failure, qemu, libvirt);
    }

    /** ZStack's actualSize, or null when it was never measured (ZStack leaves it null or 0 until its agent reports one). */
    private static Long measured(Long actualSize) {
        return actualSize == null || actualSize <= 0 ? null : actualSize;
    }

    private static Map<String, String> primaryStorageTypes(List<VolumeInventory> volumes) {
        Set<String> uuids = new HashSet<>();
        for (VolumeInventory v : volumes) if (v.getPrimaryStorageUuid() != null) uuids.add(v.getPrimaryStorageUuid());
        Map<String, String> types = new HashMap<>();
        if (uuids.isEmpty()) return types;
        List<Tuple> rows = Q.New(PrimaryStorageVO.class).select(PrimaryStorageVO_.uuid, PrimaryStorageVO_.type)
                .in(PrimaryStorageVO_.uuid, new ArrayList<>(uuids)).listTuple();
        for (Tuple t : rows) types.put(t.get(0, String.class), t.get(1, String.class));
        return types;
    }

    /** primary storage uuid -> its qcow2.allocation, for primary storages of a type that has that config. */
    private Map<String, String> allocationPolicies(Map<String, String> psTypes) {
        Map<GlobalConfig, List<String>> byConfig = new HashMap<>();
        psTypes.forEach((uuid, type) -> {
            GlobalConfig c = ALLOCATION_CONFIGS.get(type);
            if (c != null) byConfig.computeIfAbsent(c, k -> new ArrayList<>()).add(uuid);
        });
        Map<String, String> out = new HashMap<>();
        byConfig.forEach((config, uuids) -> out.putAll(resourceConfigs.getResourceConfigValues(config, uuids, String.class)));
        return out;
    }
}
