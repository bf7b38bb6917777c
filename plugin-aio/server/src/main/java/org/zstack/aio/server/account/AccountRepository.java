package org.zstack.aio.server.account;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.Optional;

public interface AccountRepository extends JpaRepository<AccountVO, String> {
    Optional<AccountVO> findByName(String name);
}
