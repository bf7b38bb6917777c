package org.zstack.aio.server.config;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.Optional;

public interface GlobalConfigRepository extends JpaRepository<GlobalConfigVO, Long> {
    Optional<GlobalConfigVO> findByCategoryAndName(String category, String name);
}
