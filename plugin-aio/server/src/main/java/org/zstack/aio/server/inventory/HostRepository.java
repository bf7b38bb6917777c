package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

public interface HostRepository extends JpaRepository<HostVO, String> {

    java.util.Optional<HostVO> findFirstByStatusOrderByCreateDateAscUuidAsc(String status);

    java.util.List<HostVO> findByManagementIpAndAgentPort(String managementIp, int agentPort);
}
