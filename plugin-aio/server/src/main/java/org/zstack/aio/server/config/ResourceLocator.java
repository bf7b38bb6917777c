package org.zstack.aio.server.config;

import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/** Finds which kind of resource a uuid names, in one round trip over every table that may hold it. */
@Component
public class ResourceLocator {

    private static final String SQL = """
            SELECT 'VolumeVO', v.uuid, v.accountUuid, v.primaryStorageUuid FROM VolumeVO v WHERE v.uuid = :u
            UNION ALL SELECT 'PrimaryStorageVO', p.uuid, CAST(NULL AS VARCHAR(32)), CAST(NULL AS VARCHAR(32)) FROM PrimaryStorageVO p WHERE p.uuid = :u
            UNION ALL SELECT 'HostVO', h.uuid, CAST(NULL AS VARCHAR(32)), CAST(NULL AS VARCHAR(32)) FROM HostVO h WHERE h.uuid = :u
            UNION ALL SELECT 'VmInstanceVO', m.uuid, m.accountUuid, CAST(NULL AS VARCHAR(32)) FROM VmInstanceVO m WHERE m.uuid = :u
            """;

    private final EntityManager em;

    public ResourceLocator(EntityManager em) {
        this.em = em;
    }

    public Optional<LocatedResource> locate(String uuid) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery(SQL).setParameter("u", uuid).getResultList();
        if (rows.isEmpty()) return Optional.empty();
        Object[] r = rows.get(0);
        return Optional.of(new LocatedResource((String) r[0], (String) r[1], (String) r[2], (String) r[3]));
    }
}
