package org.zstack.aio.server.inventory;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;

public interface VmInstanceRepository extends JpaRepository<VmInstanceVO, String> {

    List<VmInstanceVO> findByAccountUuid(String accountUuid);
}
