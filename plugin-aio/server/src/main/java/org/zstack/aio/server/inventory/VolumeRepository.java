package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;
import java.util.Collection;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;

import java.time.LocalDateTime;

public interface VolumeRepository extends JpaRepository<VolumeVO, String> {

    List<VolumeVO> findByAccountUuid(String accountUuid);

    List<VolumeVO> findByVmInstanceUuidOrderByDeviceId(String vmInstanceUuid);

    List<VolumeVO> findByVmInstanceUuidIn(Collection<String> vmUuids);

    long countByPrimaryStorageUuid(String primaryStorageUuid);

    /** [primaryStorageUuid, count] for every storage that holds volumes, in one query. */
    @Query(
            "select v.primaryStorageUuid, count(v) from VolumeVO v where v.primaryStorageUuid in :storages "
            + "group by v.primaryStorageUuid")
    List<Object[]> countPerPrimaryStorage(java.util.Collection<String> storages);


    /** Claims the volume for one attach (any node): only an unattached volume without a live claim. 1 = claimed. */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query(nativeQuery = true, value = "UPDATE VolumeVO SET attachClaimUntil = :until WHERE uuid = :uuid"
           + " AND vmInstanceUuid IS NULL AND (attachClaimUntil IS NULL OR attachClaimUntil < :now)")
    int claimAttach(String uuid, LocalDateTime now, LocalDateTime until);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query(nativeQuery = true, value = "UPDATE VolumeVO SET attachClaimUntil = NULL WHERE uuid = :uuid")
    int releaseAttach(String uuid);

    /** Records a disk found live in a domain as attached, unless someone attaches or attached it meanwhile. */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query(nativeQuery = true, value = "UPDATE VolumeVO SET vmInstanceUuid = :vmUuid, deviceId = :deviceId,"
           + " lastOpDate = CURRENT_TIMESTAMP(3) WHERE uuid = :uuid AND vmInstanceUuid IS NULL"
           + " AND (attachClaimUntil IS NULL OR attachClaimUntil < :now)")
    int adoptAttached(String uuid, String vmUuid, int deviceId, LocalDateTime now);

    List<VolumeVO> findByInstallPathIn(Collection<String> installPaths);
}
