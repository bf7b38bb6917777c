package org.zstack.aio.server.host;

import org.zstack.aio.server.inventory.PrimaryStorageVO;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** How a host's storage path facts find their primary storage: the agent is given each storage's url as its path. */
public final class StoragePaths {

    private StoragePaths() {
    }

    /** Primary storage uuids by their url as a normalised path. */
    public static Map<String, String> byPath(Collection<PrimaryStorageVO> storages) {
        Map<String, String> out = new HashMap<>();
        for (PrimaryStorageVO p : storages) {
            if (p.getUrl() != null) out.put(normalise(p.getUrl()), p.getUuid());
        }
        return out;
    }

    static String normalise(String path) {
        return path == null ? null : Path.of(path).normalize().toString();
    }
}
