package org.zstack.aio.server.account;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "SessionVO")
public class SessionVO {
    @Id
    private String uuid;
    private String accountUuid;
    private LocalDateTime expiredDate;
    private LocalDateTime createDate;

    protected SessionVO() {
    }

    public SessionVO(String uuid, String accountUuid, LocalDateTime expiredDate) {
        this.uuid = uuid;
        this.accountUuid = accountUuid;
        this.expiredDate = expiredDate;
        this.createDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public String getAccountUuid() { return accountUuid; }
    public LocalDateTime getExpiredDate() { return expiredDate; }
    public LocalDateTime getCreateDate() { return createDate; }
}
