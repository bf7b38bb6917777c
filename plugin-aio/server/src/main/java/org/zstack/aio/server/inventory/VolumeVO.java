package org.zstack.aio.server.inventory;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

@Entity
@Table(name = "VolumeVO")
public class VolumeVO {
    @Id
    private String uuid;
    private String name;
    private String primaryStorageUuid;
    private String vmInstanceUuid;
    private Integer deviceId;
    private String installPath;
    private String format;
    private long size;
    private Long actualSize;
    private String preallocation;
    private String accountUuid;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected VolumeVO() {
    }

    public VolumeVO(String uuid, String name, String primaryStorageUuid, String format, long size, String preallocation,
                    String accountUuid) {
        this.uuid = uuid;
        this.name = name;
        this.primaryStorageUuid = primaryStorageUuid;
        this.format = format;
        this.size = size;
        this.preallocation = preallocation;
        this.accountUuid = accountUuid;
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    /**
     * A detached, read-only copy of a stored volume with the columns a decision reads (views over every volume read
     * these as plain columns: loading 100,000 managed entities was most of the impact preview's time).
     */
    public static VolumeVO decisionFacts(String uuid, String primaryStorageUuid, String vmInstanceUuid, String format, long size,
                                         Long actualSize, String preallocation, LocalDateTime createDate) {
        VolumeVO v = new VolumeVO();
        v.uuid = uuid;
        v.primaryStorageUuid = primaryStorageUuid;
        v.vmInstanceUuid = vmInstanceUuid;
        v.format = format;
        v.size = size;
        v.actualSize = actualSize;
        v.preallocation = preallocation;
        v.createDate = createDate;
        return v;
    }

    public String getUuid() { return uuid; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }
    public String getName() { return name; }
    public String getPrimaryStorageUuid() { return primaryStorageUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    public Integer getDeviceId() { return deviceId; }
    public String getInstallPath() { return installPath; }
    public String getFormat() { return format; }
    public long getSize() { return size; }
    public Long getActualSize() { return actualSize; }
    public String getPreallocation() { return preallocation; }
    public String getAccountUuid() { return accountUuid; }

    /** The image the agent created, with its measured allocation. */
    public void setImage(String installPath, long size, long actualSize) {
        this.installPath = installPath;
        this.size = size;
        this.actualSize = actualSize;
        this.lastOpDate = LocalDateTime.now();
    }

    public void attachTo(String vmUuid, int deviceId) {
        this.vmInstanceUuid = vmUuid;
        this.deviceId = deviceId;
        this.lastOpDate = LocalDateTime.now();
    }
}
