package org.zstack.aio.server.benchmark;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

import java.util.Collection;
import java.util.List;

public interface HostIoBenchmarkRepository extends JpaRepository<HostIoBenchmarkVO, HostIoBenchmarkVO.Key> {

    List<HostIoBenchmarkVO> findByHostUuidOrderByPrimaryStorageUuid(String hostUuid);

    /** One query for the decisions of a VM: this host's benchmarks of these primary storages. */
    @Query("select b from HostIoBenchmarkVO b where b.hostUuid = :host and b.primaryStorageUuid in :storages")
    List<HostIoBenchmarkVO> forDecisions(@Param("host") String hostUuid, @Param("storages") Collection<String> storages);
}
