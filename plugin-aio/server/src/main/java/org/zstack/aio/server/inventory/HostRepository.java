package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

public interface HostRepository extends JpaRepository<HostVO, String> {

    java.util.Optional<HostVO> findFirstByStatusOrderByCreateDateAscUuidAsc(String status);

    java.util.List<HostVO> findByManagementIpAndAgentPort(String managementIp, int agentPort);

    /** A reconnect ends a deferral of the host's tracking (HostTracker): its next round is due at once. */
    @org.springframework.data.jpa.repository.Modifying
    @org.springframework.data.jpa.repository.Query(nativeQuery = true,
            value = "UPDATE HostVO SET trackClaimUntil = NULL WHERE uuid = :uuid AND trackClaimUntil > CURRENT_TIMESTAMP(3)")
    int endTrackingDeferral(String uuid);
}
