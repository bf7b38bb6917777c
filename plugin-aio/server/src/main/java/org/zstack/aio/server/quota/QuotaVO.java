package org.zstack.aio.server.quota;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

/** ZStack's QuotaVO row: one limit of one account. */
@Entity
@Table(name = "QuotaVO")
public class QuotaVO {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    private String name;
    private String identityUuid;
    private String identityType;
    private long value;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected QuotaVO() {
    }

    QuotaVO(String name, String identityUuid, long value) {
        this.name = name;
        this.identityUuid = identityUuid;
        this.identityType = "AccountVO";
        this.value = value;
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getName() { return name; }
    public String getIdentityUuid() { return identityUuid; }
    public long getValue() { return value; }

    void setValue(long value) {
        this.value = value;
        this.lastOpDate = LocalDateTime.now();
    }
}
