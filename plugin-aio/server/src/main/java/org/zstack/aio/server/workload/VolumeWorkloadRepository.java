package org.zstack.aio.server.workload;

import org.springframework.data.jpa.repository.JpaRepository;

public interface VolumeWorkloadRepository extends JpaRepository<VolumeWorkloadVO, String> {
}
