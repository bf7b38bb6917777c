package org.zstack.aio.server.vm;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.inventory.VmInstanceVO;

/** State changes as compare-and-set, so two concurrent starts of one VM cannot both proceed. */
public interface VmStateRepository extends JpaRepository<VmInstanceVO, String> {

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = :from")
    int transition(String uuid, String from, String to);
}
