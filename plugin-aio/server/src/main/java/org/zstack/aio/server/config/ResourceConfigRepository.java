package org.zstack.aio.server.config;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.Optional;

public interface ResourceConfigRepository extends JpaRepository<ResourceConfigVO, String> {
    Optional<ResourceConfigVO> findByResourceUuidAndCategoryAndName(String resourceUuid, String category, String name);
}
