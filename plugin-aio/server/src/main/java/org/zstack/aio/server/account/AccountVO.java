package org.zstack.aio.server.account;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "AccountVO")
public class AccountVO {

    public static final String SYSTEM_ADMIN = "SystemAdmin";
    public static final String NORMAL = "Normal";

    @Id
    private String uuid;
    private String name;
    /** a BCrypt hash, never the password */
    @Column(name = "password")
    private String passwordHash;
    private String type;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected AccountVO() {
    }

    public AccountVO(String uuid, String name, String passwordHash, String type) {
        this.uuid = uuid;
        this.name = name;
        this.passwordHash = passwordHash;
        this.type = type;
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public String getName() { return name; }
    public String getPasswordHash() { return passwordHash; }
    public String getType() { return type; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }

    void setPasswordHash(String passwordHash) {
        this.passwordHash = passwordHash;
        this.lastOpDate = LocalDateTime.now();
    }

    public boolean isAdmin() { return SYSTEM_ADMIN.equals(type); }
}
