package org.zstack.aio.server.iomode;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

import java.util.Collection;
import java.util.List;

/**
 * Stored decisions. JPQL rather than {@code findAllById}: Spring Data builds that one as a criteria query, which
 * Hibernate translates again on every call, where a JPQL string's plan is cached (it was ~3 % of a start's allocation).
 */
public interface VolumeIoModeDecisionRepository extends JpaRepository<VolumeIoModeDecisionVO, String> {

    @Query("select d from VolumeIoModeDecisionVO d where d.volumeUuid in :ids")
    List<VolumeIoModeDecisionVO> findByVolumeUuids(@Param("ids") Collection<String> volumeUuids);
}
