package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.ZStackDeviceTypes;
import org.zstack.aio.plugin.cache.ConfigRows;
import org.zstack.aio.plugin.cache.IoFactsCache;
import org.zstack.core.config.GlobalConfig;
import org.zstack.header.volume.VolumeInventory;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What ZStack knows of some volumes beyond their inventories: their primary storages' types, and every ResourceConfigVO
 * row the decision reads for them (the io-mode overrides on the volumes and their primary storages, and each file
 * storage's qcow2.allocation), from the node's memory ({@link IoFactsCache}; {@link ConfigRowsReader} reads what it
 * does not keep, in one statement). ZStack's ResourceConfig resolves one config per call and does not say which level
 * won; the decision needs the level, so the rows are read and the core folds them ({@link ConfigValues}).
 *
 * A volume's preallocation is the qcow2 allocation policy of its primary storage (ZStack records none per volume), and
 * its measured allocation its own actualSize against its size: the decision core takes the more cautious of the two.
 */
public final class VolumeFactsReader {

    private static final String QCOW2 = "qcow2";

    /** The rows read for some volumes. */
    static final class Read implements ConfigValues {
        private final ConfigRows rows;

        Read(ConfigRows rows) {
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
            String type = rows.storageType(ps);
            return VolumeIoFacts.builder(v.getUuid()).name(v.getName()).storage(ps, type)
                    .image(v.getFormat(), QCOW2.equals(v.getFormat()) ? allocation(ps, type) : null)
                    .sizes(v.getSize(), v.getActualSize()).cacheMode(cacheMode)
                    .kind(ZStackDeviceTypes.kind(deviceType)).unreachableAtStart(ZStackDeviceTypes.unreachableAtStart(deviceType))
                    .build();
        }

        /** The storage's own qcow2.allocation, else the global value: ZStack's resolution of a PrimaryStorageVO-only binding. */
        private String allocation(String ps, String type) {
            GlobalConfig c = Qcow2Allocation.of(type);
            if (c == null) return null;
            String own = rows.row(ps, c.getCategory(), c.getName());
            return own != null ? own : c.value();
        }

        @Override
        public String override(String resourceUuid, IoModeConfig config) {
            return rows.row(resourceUuid, config.category(), config.name());
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

    private final IoFactsCache cache;

    public VolumeFactsReader(IoFactsCache cache) {
        this.cache = cache;
    }

    /** The storages' types and the config rows of the volumes and their storages: from memory, else one statement. */
    Read read(Collection<VolumeInventory> volumes) {
        Set<String> storages = new LinkedHashSet<>();
        Set<String> owners = new LinkedHashSet<>();
        for (VolumeInventory v : volumes) {
            owners.add(v.getUuid());
            if (v.getPrimaryStorageUuid() != null) storages.add(v.getPrimaryStorageUuid());
        }
        return new Read(cache.configRows(owners, storages));
    }
}
