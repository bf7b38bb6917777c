package org.zstack.aio.server.benchmark;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;

public interface HostIoBenchmarkRepository extends JpaRepository<HostIoBenchmarkVO, HostIoBenchmarkVO.Key> {

    List<HostIoBenchmarkVO> findByHostUuidOrderByPrimaryStorageUuid(String hostUuid);
}
