package org.zstack.aio.server.audit;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

/** One audited change (or failed login): who, what, from which value to which, when, from where. */
@Entity
@Table(name = "AuditVO")
public class AuditVO {
    @Id
    private String uuid;
    private String accountUuid;
    private String accountName;
    private String action;
    private String resourceType;
    private String resourceUuid;
    private String resourceName;
    private String oldValue;
    private String newValue;
    private boolean success;
    private String error;
    private String clientIp;
    private LocalDateTime createDate;

    protected AuditVO() {
    }

    AuditVO(String uuid, String accountUuid, String accountName, AuditEntry e, boolean success, String error,
            String clientIp, LocalDateTime createDate) {
        this.uuid = uuid;
        this.accountUuid = accountUuid;
        this.accountName = accountName;
        this.action = e.action();
        this.resourceType = e.resourceType();
        this.resourceUuid = e.resourceUuid();
        this.resourceName = e.resourceName();
        this.oldValue = e.oldValue();
        this.newValue = e.newValue();
        this.success = success;
        this.error = error;
        this.clientIp = clientIp;
        this.createDate = createDate;
    }

    public String getUuid() { return uuid; }
    public String getAccountUuid() { return accountUuid; }
    public String getAccountName() { return accountName; }
    public String getAction() { return action; }
    public String getResourceType() { return resourceType; }
    public String getResourceUuid() { return resourceUuid; }
    public String getResourceName() { return resourceName; }
    public String getOldValue() { return oldValue; }
    public String getNewValue() { return newValue; }
    public boolean isSuccess() { return success; }
    public String getError() { return error; }
    public String getClientIp() { return clientIp; }
    public LocalDateTime getCreateDate() { return createDate; }
}
