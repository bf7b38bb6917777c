package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

public interface PrimaryStorageRepository extends JpaRepository<PrimaryStorageVO, String> {
}
