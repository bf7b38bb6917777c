package org.zstack.aio.server.agent;

import org.springframework.data.jpa.repository.JpaRepository;

public interface AgentCredentialRepository extends JpaRepository<AgentCredentialVO, String> {
}
