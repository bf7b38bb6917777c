package org.zstack.aio.server.job;

import org.springframework.data.jpa.repository.JpaRepository;

public interface ApiJobRepository extends JpaRepository<ApiJobVO, String> {
}
