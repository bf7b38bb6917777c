package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.ZStackDeviceTypes;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.Q;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.header.storage.primary.PrimaryStorageVO_;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.resourceconfig.ResourceConfigVO;
import org.zstack.resourceconfig.ResourceConfigVO_;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageGlobalConfig;
import org.zstack.storage.primary.smp.SMPConstants;
import org.zstack.storage.primary.smp.SMPPrimaryStorageGlobalConfig;

import javax.persistence.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What ZStack knows of some volumes beyond their inventories, in two statements whatever their number: their primary
 * storages' types, and every ResourceConfigVO row the decision reads for them (the io-mode overrides on the volumes
 * and their primary storages, and each file storage's qcow2.allocation). ZStack's ResourceConfig resolves one config
 * per call and does not say which level won; the decision needs the level, so the rows are read here and the core
 * folds them ({@link ConfigValues}).
 *
 * A volume's preallocation is the qcow2 allocation policy of its primary storage (ZStack records none per volume), and
 * its measured allocation its own actualSize against its size: the decision core takes the more cautious of the two.
 */
public final class VolumeFactsReader {

    private static final String QCOW2 = "qcow2";
    /** primary storage type -> ZStack's qcow2.allocation config of that type (bound to PrimaryStorageVO only) */
    private static final Map<String, GlobalConfig> ALLOCATION = new HashMap<>();

    static {
        ALLOCATION.put(LocalStorageConstants.LOCAL_STORAGE_TYPE, LocalStoragePrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        ALLOCATION.put(NfsPrimaryStorageConstant.NFS_PRIMARY_STORAGE_TYPE, NfsPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
        ALLOCATION.put(SMPConstants.SMP_TYPE, SMPPrimaryStorageGlobalConfig.QCOW2_ALLOCATION);
    }

    /** The rows read for some volumes. */
    static final class Read implements ConfigValues {
        private final Map<String, String> storageTypes;
        /** owner uuid -> "category/name" -> value */
        private final Map<String, Map<String, String>> rows;

        Read(Map<String, String> storageTypes, Map<String, Map<String, String>> rows) {
            this.storageTypes = storageTypes;
            this.rows = rows;
        }

        /**
         * One volume's facts.
         *
         * @param cacheMode  the cache mode ZStack resolved for it (a VolumeTO's), or null
         * @param deviceType how the agent is told to open it (a VolumeTO's), or null
         */
        VolumeIoFacts facts(VolumeInventory v, String cacheMode, String deviceType) {
            String ps = v.getPrimaryStorageUuid();
            String type = ps == null ? null : storageTypes.get(ps);
            return VolumeIoFacts.builder(v.getUuid()).name(v.getName()).storage(ps, type)
                    .image(v.getFormat(), QCOW2.equals(v.getFormat()) ? allocation(ps, type) : null)
                    .sizes(v.getSize(), v.getActualSize()).cacheMode(cacheMode)
                    .kind(ZStackDeviceTypes.kind(deviceType)).unreachableAtStart(ZStackDeviceTypes.unreachableAtStart(deviceType))
                    .build();
        }

        /** The storage's own qcow2.allocation, else the global value: ZStack's resolution of a PrimaryStorageVO-only binding. */
        private String allocation(String ps, String type) {
            GlobalConfig c = type == null ? null : ALLOCATION.get(type);
            if (c == null) return null;
            String own = row(ps, c.getCategory(), c.getName());
            return own != null ? own : c.value();
        }

        private String row(String owner, String category, String name) {
            Map<String, String> m = owner == null ? null : rows.get(owner);
            return m == null ? null : m.get(category + "/" + name);
        }

        @Override
        public String override(String resourceUuid, IoModeConfig config) {
            return row(resourceUuid, config.category(), config.name());
        }

        @Override
        public String global(IoModeConfig config) {
            return AioIoModeGlobalConfig.of(config).value();
        }

        @Override
        public String globalDefault(IoModeConfig config) {
            return AioIoModeGlobalConfig.of(config).getDefaultValue();
        }
    }

    Read read(Collection<VolumeInventory> volumes) {
        Set<String> storages = new LinkedHashSet<>();
        Set<String> owners = new LinkedHashSet<>();
        for (VolumeInventory v : volumes) {
            owners.add(v.getUuid());
            if (v.getPrimaryStorageUuid() != null) storages.add(v.getPrimaryStorageUuid());
        }
        owners.addAll(storages);
        return new Read(storageTypes(storages), rows(owners));
    }

    private static Map<String, String> storageTypes(Set<String> uuids) {
        Map<String, String> types = new HashMap<>();
        if (uuids.isEmpty()) return types;
        List<Tuple> rows = Q.New(PrimaryStorageVO.class).select(PrimaryStorageVO_.uuid, PrimaryStorageVO_.type)
                .in(PrimaryStorageVO_.uuid, new ArrayList<>(uuids)).listTuple();
        for (Tuple t : rows) types.put(t.get(0, String.class), t.get(1, String.class));
        return types;
    }

    /** owner uuid -> "category/name" -> value, for the io-mode configs and the qcow2.allocation configs on these owners. */
    private static Map<String, Map<String, String>> rows(Set<String> owners) {
        Map<String, Map<String, String>> byOwner = new HashMap<>();
        if (owners.isEmpty()) return byOwner;
        Set<String> categories = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (IoModeConfig c : IoModeConfig.ALL) {
            categories.add(c.category());
            names.add(c.name());
        }
        for (GlobalConfig c : ALLOCATION.values()) {
            categories.add(c.getCategory());
            names.add(c.getName());
        }
        List<ResourceConfigVO> rows = Q.New(ResourceConfigVO.class)
                .in(ResourceConfigVO_.category, new ArrayList<>(categories))
                .in(ResourceConfigVO_.name, new ArrayList<>(names))
                .in(ResourceConfigVO_.resourceUuid, new ArrayList<>(owners))
                .list();
        for (ResourceConfigVO r : rows) {
            byOwner.computeIfAbsent(r.getResourceUuid(), k -> new HashMap<>()).put(r.getCategory() + "/" + r.getName(), r.getValue());
        }
        return byOwner;
    }
}
