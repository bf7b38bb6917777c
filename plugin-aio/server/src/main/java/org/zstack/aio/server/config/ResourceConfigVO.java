package org.zstack.aio.server.config;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "ResourceConfigVO")
public class ResourceConfigVO {
    @Id
    private String uuid;
    private String resourceUuid;
    private String resourceType;
    private String category;
    private String name;
    private String value;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected ResourceConfigVO() {
    }

    ResourceConfigVO(String uuid, String resourceUuid, String resourceType, String category, String name, String value) {
        this.uuid = uuid;
        this.resourceUuid = resourceUuid;
        this.resourceType = resourceType;
        this.category = category;
        this.name = name;
        this.value = value;
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public String getResourceUuid() { return resourceUuid; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }
    public String getResourceType() { return resourceType; }
    public String getCategory() { return category; }
    public String getName() { return name; }
    public String getValue() { return value; }

    void setValue(String value) {
        this.value = value;
        this.lastOpDate = LocalDateTime.now();
    }
}
