package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.ZStackDeviceTypes;
import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageGlobalConfig;
import org.zstack.storage.primary.smp.SMPConstants;
import org.zstack.storage.primary.smp.SMPPrimaryStorageGlobalConfig;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What ZStack knows of some volumes beyond their inventories, in one statement whatever their number: their primary
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

    private final DatabaseFacade dbf;

    public VolumeFactsReader(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /**
     * The storages' types and the config rows of the volumes and their storages, in ONE statement (a UNION ALL of the
     * two reads): the only read of a VM start besides what the node keeps in memory (the host facts, benchmarks and profiles of {@link org.zstack.aio.plugin.cache.IoFactsCache}).
     */
    Read read(Collection<VolumeInventory> volumes) {
        Set<String> storages = new LinkedHashSet<>();
        Set<String> owners = new LinkedHashSet<>();
        for (VolumeInventory v : volumes) {
            owners.add(v.getUuid());
            if (v.getPrimaryStorageUuid() != null) storages.add(v.getPrimaryStorageUuid());
        }
        owners.addAll(storages);
        Map<String, String> types = new HashMap<>();
        Map<String, Map<String, String>> byOwner = new HashMap<>();
        if (owners.isEmpty()) return new Read(types, byOwner);
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
        List<Object> args = new ArrayList<>();
        // a storage-less volume still has its own rows: the first half then matches nothing
        args.addAll(storages.isEmpty() ? Collections.singletonList("") : storages);
        args.addAll(categories);
        args.addAll(names);
        args.addAll(owners);
        String sql = "SELECT 'type', uuid, NULL, type FROM PrimaryStorageVO WHERE uuid IN ("
                + InList.marks(storages.isEmpty() ? 1 : storages.size()) + ")"
                + " UNION ALL SELECT 'row', resourceUuid, CONCAT(category, '/', name), value FROM ResourceConfigVO"
                + " WHERE category IN (" + InList.marks(categories.size()) + ") AND name IN (" + InList.marks(names.size()) + ")"
                + " AND resourceUuid IN (" + InList.marks(owners.size()) + ")";
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).query(sql, rs -> {
            if ("type".equals(rs.getString(1))) {
                types.put(rs.getString(2), rs.getString(4));
            } else {
                byOwner.computeIfAbsent(rs.getString(2), k -> new HashMap<>()).put(rs.getString(3), rs.getString(4));
            }
        }, args.toArray());
        return new Read(types, byOwner);
    }
}
