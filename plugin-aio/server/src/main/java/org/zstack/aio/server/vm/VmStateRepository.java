package org.zstack.aio.server.vm;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.inventory.VmInstanceVO;

import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;

/**
 * State changes as compare-and-set in the database (never an in-memory lock), so two concurrent starts of one VM
 * cannot both proceed, on one management node or two. Every change bumps stateVersion.
 */
public interface VmStateRepository extends JpaRepository<VmInstanceVO, String> {

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = :from")
    int transition(String uuid, String from, String to);

    /** Starts an operation: the state moves only from {@code from}, and the lease says a node is working on it. */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = :leaseUntil,"
           + " v.stateReason = null, v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = :from")
    int claim(String uuid, String from, String to, LocalDateTime leaseUntil);

    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.opLeaseUntil = :leaseUntil where v.uuid in :uuids and v.opLeaseUntil is not null")
    int renewLeases(Collection<String> uuids, LocalDateTime leaseUntil);

    /** The tracker's change: applies only if nobody changed the VM since the tracker read it (same version). */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null,"
           + " v.stateReason = :reason, v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.stateVersion = :version")
    int settle(String uuid, long version, String to, String reason);

    List<VmInstanceVO> findByHostUuid(String hostUuid);
}
