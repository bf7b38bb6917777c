package org.zstack.aio.server.inventory;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "PrimaryStorageVO")
public class PrimaryStorageVO {
    @Id
    private String uuid;
    private String name;
    private String type;
    private String url;
    private String status;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected PrimaryStorageVO() {
    }

    public PrimaryStorageVO(String uuid, String name, String type, String url) {
        this.uuid = uuid;
        this.name = name;
        this.type = type;
        this.url = url;
        this.status = "Connected";
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public String getName() { return name; }
    public String getType() { return type; }
    public String getUrl() { return url; }
    public String getStatus() { return status; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }
}
