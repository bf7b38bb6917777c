package org.zstack.aio.server.inventory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "HostVO")
public class HostVO {
    @Id
    private String uuid;
    private String name;
    private String managementIp;
    private int agentPort;
    private String status;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;
    /**
     * Until when one node's tracker round of this host runs, or its next round is deferred. Read only here: only the
     * tracker's compare-and-set statements write it, never an entity update carrying a stale value.
     */
    @Column(insertable = false, updatable = false)
    private LocalDateTime trackClaimUntil;

    protected HostVO() {
    }

    public HostVO(String uuid, String name, String managementIp, int agentPort) {
        this.uuid = uuid;
        this.name = name;
        this.managementIp = managementIp;
        this.agentPort = agentPort;
        this.status = "Connected";
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }
    public String getName() { return name; }
    public String getManagementIp() { return managementIp; }
    public int getAgentPort() { return agentPort; }
    public String getStatus() { return status; }

    public void setStatus(String status) {
        this.status = status;
        this.lastOpDate = LocalDateTime.now();
    }
}
