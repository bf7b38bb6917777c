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

    /**
     * Starts a live migration: like {@link #claim}, and the row names the destination until the VM settles. Only at
     * the version the migration was planned on: a VM stopped, moved and started again in between (another request,
     * another node) runs elsewhere, and the source agent asked would be the wrong one.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = 'Migrating', v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = :leaseUntil,"
           + " v.migrateHostUuid = :destination, v.stateReason = null, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.state = 'Running' and v.stateVersion = :version")
    int claimMigration(String uuid, long version, String destination, LocalDateTime leaseUntil);

    /** Ends a migration: the VM runs on {@code hostUuid} (the destination, or the source after a failure). */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = 'Running', v.hostUuid = :hostUuid, v.migrateHostUuid = null,"
           + " v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.state = 'Migrating'")
    int endMigration(String uuid, String hostUuid);

    /** Cold migration: a Stopped VM (at the version checked) now belongs to another host; its next start decides there. */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.hostUuid = :hostUuid, v.stateVersion = v.stateVersion + 1,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = 'Stopped' and v.stateVersion = :version")
    int moveStopped(String uuid, long version, String hostUuid);

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

    /** The tracker's settling of an interrupted migration: the VM is {@code to} on {@code hostUuid} (same version). */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.hostUuid = :hostUuid, v.migrateHostUuid = null,"
           + " v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null, v.stateReason = :reason,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.stateVersion = :version")
    int settleOn(String uuid, long version, String hostUuid, String to, String reason);

    List<VmInstanceVO> findByHostUuid(String hostUuid);
}
