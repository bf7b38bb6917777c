package org.zstack.aio.server.job;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

import java.time.LocalDateTime;
import java.util.Collection;

public interface ApiJobRepository extends JpaRepository<ApiJobVO, String> {

    /** The node running these jobs is alive: their lease (lastOpDate) moves on. */
    @Modifying
    @Transactional
    @Query("update ApiJobVO j set j.lastOpDate = :now where j.uuid in :uuids and j.state = 'Running'")
    int renew(@Param("uuids") Collection<String> uuids, @Param("now") LocalDateTime now);

    /** Running jobs nobody renewed since {@code cutoff}: their node died; they fail with {@code result}. */
    @Modifying
    @Transactional
    @Query("update ApiJobVO j set j.state = 'Failed', j.httpStatus = 503, j.result = :result, j.lastOpDate = :now "
           + "where j.state = 'Running' and j.lastOpDate < :cutoff")
    int failUnrenewed(@Param("cutoff") LocalDateTime cutoff, @Param("result") String result, @Param("now") LocalDateTime now);

    /** Jobs finished before {@code cutoff}: their answers were kept long enough to be polled. */
    @Modifying
    @Transactional
    @Query("delete from ApiJobVO j where j.state <> 'Running' and j.lastOpDate < :cutoff")
    int pruneFinished(@Param("cutoff") LocalDateTime cutoff);
}
