package org.zstack.aio.server.account;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import java.util.Optional;

public interface SessionRepository extends JpaRepository<SessionVO, String> {

    /** The session's account in one round trip (every API call does this). */
    @Query("select a from SessionVO s join AccountVO a on a.uuid = s.accountUuid "
           + "where s.uuid = :session and s.expiredDate > CURRENT_TIMESTAMP")
    Optional<AccountVO> findLiveAccount(String session);
}
