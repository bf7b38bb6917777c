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

    /**
     * Ends the operation {@code token}: the VM moves from {@code from} to {@code to} only while its row still carries
     * that token, so a step of an operation whose lease lapsed (the tracker settled the VM, or another operation claimed
     * it since) changes nothing. The token stays in the row, so a step whose commit went unacknowledged, run again,
     * matches no row (0) and {@link #held} still says 1: it is done, and its audit row is not written twice.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = :from and v.opToken = :token")
    int transition(String uuid, String from, String to, String token);

    /**
     * Starts a live migration: like {@link #claim}, and the row names the destination until the VM settles. Only at
     * the version the migration was planned on: a VM stopped, moved and started again in between (another request,
     * another node) runs elsewhere, and the source agent asked would be the wrong one.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = 'Migrating', v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = :leaseUntil,"
           + " v.opToken = :token, v.migrateHostUuid = :destination, v.stateReason = null, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.state = 'Running' and v.stateVersion = :version")
    int claimMigration(String uuid, long version, String destination, LocalDateTime leaseUntil, String token);

    /**
     * Ends the migration {@code token}: the VM runs on {@code hostUuid} (the destination, or the source after a
     * failure). 0 when the tracker settled it first (the lease lapsed), or when this change committed and runs again
     * (then {@link #held} says 1, as for {@link #transition}).
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = 'Running', v.hostUuid = :hostUuid, v.migrateHostUuid = null,"
           + " v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.state = 'Migrating' and v.opToken = :token")
    int endMigration(String uuid, String hostUuid, String token);

    /** Cold migration: a Stopped VM (at the version checked) now belongs to another host; its next start decides there. */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.hostUuid = :hostUuid, v.stateVersion = v.stateVersion + 1,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = 'Stopped' and v.stateVersion = :version")
    int moveStopped(String uuid, long version, String hostUuid);

    /**
     * Starts an operation: the state moves only from {@code from}; the lease says a node is working on it and the token
     * which operation it is.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = :leaseUntil,"
           + " v.opToken = :token, v.stateReason = null, v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.state = :from")
    int claim(String uuid, String from, String to, LocalDateTime leaseUntil, String token);

    /**
     * The outcome of an operation that the tracker settled first, from libvirt as it was before the agent carried the
     * operation out (the operation's lease lapsed while the database was away): the agent's answer is newer, so it
     * is the state, on {@code hostUuid}. Only while no operation has claimed the VM since (a claim writes a token,
     * and a settle clears it) and the VM is settled elsewhere than {@code to} on {@code hostUuid}.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.hostUuid = :hostUuid, v.migrateHostUuid = null,"
           + " v.stateVersion = v.stateVersion + 1, v.stateReason = :reason, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.opToken is null and v.state in ('Running', 'Stopped', 'Unknown')"
           + " and (v.state <> :to or v.hostUuid <> :hostUuid)")
    int outcomeOverSettled(String uuid, String hostUuid, String to, String reason);

    /**
     * 1 when {@code token} is the operation that last claimed the VM and the tracker has not settled it since: its claim
     * (or its last step) committed, whether or not the commit was acknowledged.
     */
    @Transactional(readOnly = true)
    @Query("select count(v) from VmInstanceVO v where v.uuid = :uuid and v.opToken = :token")
    long held(String uuid, String token);

    /**
     * Renews the leases of the operations named while they hold one, and no other lease (another node's operation, one
     * the tracker settled); an operation whose last step ended it (lease null, token kept) gets none back. The rows are
     * found by primary key ({@code vmUuids}): a scan for the tokens would read, and on InnoDB lock, the whole table.
     */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.opLeaseUntil = :leaseUntil where v.uuid in :vmUuids and v.opToken in :tokens"
           + " and v.opLeaseUntil is not null")
    int renewLeases(Collection<String> vmUuids, Collection<String> tokens, LocalDateTime leaseUntil);

    /** The tracker's change: applies only if nobody changed the VM since the tracker read it (same version). */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null,"
           + " v.opToken = null, v.stateReason = :reason, v.lastOpDate = CURRENT_TIMESTAMP"
           + " where v.uuid = :uuid and v.stateVersion = :version")
    int settle(String uuid, long version, String to, String reason);

    /** The tracker's settling of an interrupted migration: the VM is {@code to} on {@code hostUuid} (same version). */
    @Transactional
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update VmInstanceVO v set v.state = :to, v.hostUuid = :hostUuid, v.migrateHostUuid = null,"
           + " v.stateVersion = v.stateVersion + 1, v.opLeaseUntil = null, v.opToken = null, v.stateReason = :reason,"
           + " v.lastOpDate = CURRENT_TIMESTAMP where v.uuid = :uuid and v.stateVersion = :version")
    int settleOn(String uuid, long version, String hostUuid, String to, String reason);

    List<VmInstanceVO> findByHostUuid(String hostUuid);
}
