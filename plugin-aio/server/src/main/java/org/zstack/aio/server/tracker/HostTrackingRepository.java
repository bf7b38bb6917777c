package org.zstack.aio.server.tracker;

import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.inventory.HostVO;

import java.time.LocalDateTime;
import java.util.List;

/** The tracker's writes to HostVO, each one statement that any management node may run. */
interface HostTrackingRepository extends Repository<HostVO, String> {

    List<HostVO> findAll();

    /**
     * The hosts whose round is due: no claim, or a lapsed one (another node's round, or a deferral of an unreachable
     * host). A tick reads only these, not every host: at 1,000 hosts, reading all of them every second was most of
     * the tracker's cost (docs/performance.md §6).
     */
    @Query("select h from HostVO h where h.trackClaimUntil is null or h.trackClaimUntil < :now")
    List<HostVO> findDue(LocalDateTime now);

    java.util.Optional<HostVO> findById(String uuid);

    /** This round of host {@code uuid} is ours when its claim lapsed: 1 = claimed (one node per host per round). */
    @Transactional
    @Modifying
    @Query(nativeQuery = true, value = "UPDATE HostVO SET trackClaimUntil = :until WHERE uuid = :uuid"
           + " AND (trackClaimUntil IS NULL OR trackClaimUntil < :now)")
    int claimRound(String uuid, LocalDateTime now, LocalDateTime until);

    /**
     * Moves this node's claim of the host's next round to {@code until}: an agent that does not answer, or that this
     * server cannot call at all (not enrolled), is not asked again every round (HostTracker#deferral).
     */
    @Transactional
    @Modifying
    @Query(nativeQuery = true, value = "UPDATE HostVO SET trackClaimUntil = :until WHERE uuid = :uuid")
    int deferRound(String uuid, LocalDateTime until);

    /** 1 when the status changed (so the change is logged once, by the node that made it). */
    @Transactional
    @Modifying
    @Query(nativeQuery = true, value = "UPDATE HostVO SET status = :status, lastOpDate = CURRENT_TIMESTAMP(3)"
           + " WHERE uuid = :uuid AND status <> :status")
    int setStatus(String uuid, String status);
}
