package org.zstack.aio.server.host;

import org.springframework.data.jpa.repository.JpaRepository;

public interface HostIoCapabilitiesRepository extends JpaRepository<HostIoCapabilitiesVO, String> {
}
