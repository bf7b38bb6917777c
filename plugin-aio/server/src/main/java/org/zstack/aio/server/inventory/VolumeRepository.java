package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;
import java.util.Collection;
import org.springframework.data.jpa.repository.Query;

public interface VolumeRepository extends JpaRepository<VolumeVO, String> {

    List<VolumeVO> findByAccountUuid(String accountUuid);

    List<VolumeVO> findByVmInstanceUuidOrderByDeviceId(String vmInstanceUuid);

    List<VolumeVO> findByVmInstanceUuidIn(Collection<String> vmUuids);

    long countByPrimaryStorageUuid(String primaryStorageUuid);

    /** [primaryStorageUuid, count] for every storage that holds volumes, in one query. */
    @Query(
            "select v.primaryStorageUuid, count(v) from VolumeVO v group by v.primaryStorageUuid")
    List<Object[]> countPerPrimaryStorage();
}
