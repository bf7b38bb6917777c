package org.zstack.aio.server.iomode;

import org.springframework.data.jpa.repository.JpaRepository;

public interface VolumeIoModeDecisionRepository extends JpaRepository<VolumeIoModeDecisionVO, String> {
}
