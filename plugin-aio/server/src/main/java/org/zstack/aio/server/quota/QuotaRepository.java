package org.zstack.aio.server.quota;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import java.util.List;

public interface QuotaRepository extends JpaRepository<QuotaVO, Long> {

    /** Oldest first: a platform table without a unique key may hold repeats, and the first one counts. */
    List<QuotaVO> findByIdentityUuidOrderById(String identityUuid);

    @Query("select coalesce(sum(v.size), 0) from VolumeVO v where v.accountUuid = :account")
    long volumeBytesOf(String account);

    @Query("select count(m) from VmInstanceVO m where m.accountUuid = :account")
    long vmCountOf(String account);
}
