package org.zstack.aio.server.volume;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;

import java.util.Collection;
import java.util.List;

public interface VolumeRunningRepository extends JpaRepository<VolumeRunningVO, String> {

    List<VolumeRunningVO> findByVmInstanceUuidIn(Collection<String> vmUuids);

    /** Insert or replace, one statement, safe against another node writing the same row at the same time. */
    @Transactional
    @Modifying
    @Query(nativeQuery = true, value = "INSERT INTO VolumeRunningVO (volumeUuid, vmInstanceUuid, hostUuid, io, cache, since)"
           + " VALUES (:volumeUuid, :vmUuid, :hostUuid, :io, :cache, :since) ON DUPLICATE KEY UPDATE"
           + " vmInstanceUuid = VALUES(vmInstanceUuid), hostUuid = VALUES(hostUuid), io = VALUES(io), cache = VALUES(cache),"
           + " since = VALUES(since)")
    int upsert(String volumeUuid, String vmUuid, String hostUuid, String io, String cache, java.time.LocalDateTime since);

    @Transactional
    @Modifying
    @Query("delete from VolumeRunningVO r where r.vmInstanceUuid in :vmUuids")
    int deleteByVmInstanceUuidIn(Collection<String> vmUuids);
}
