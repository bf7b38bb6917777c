package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.host.HostVO;
import org.zstack.header.message.APIMessage;
import org.zstack.header.message.APIParam;
import org.zstack.header.rest.RestRequest;
import org.zstack.header.storage.primary.PrimaryStorageVO;

/**
 * Clears io modes libvirt or QEMU refused at a start on a KVM host, so that the next start there tries them again:
 * every refusal remembered on the host, or only those of one primary storage and/or one mode. What is cleared is
 * answered ({@link APIClearRefusedIoModeEvent}); nothing remembered is no error.
 */
@RestRequest(path = "/hosts/{hostUuid}/io-facts/actions", method = HttpMethod.PUT, isAction = true,
        responseClass = APIClearRefusedIoModeEvent.class)
public class APIClearRefusedIoModeMsg extends APIMessage {
    @APIParam(resourceType = HostVO.class)
    private String hostUuid;

    @APIParam(resourceType = PrimaryStorageVO.class, required = false)
    private String primaryStorageUuid;

    @APIParam(validValues = {"native", "io_uring"}, required = false)
    private String ioMode;

    public String getHostUuid() {
        return hostUuid;
    }

    public void setHostUuid(String hostUuid) {
        this.hostUuid = hostUuid;
    }

    public String getPrimaryStorageUuid() {
        return primaryStorageUuid;
    }

    public void setPrimaryStorageUuid(String primaryStorageUuid) {
        this.primaryStorageUuid = primaryStorageUuid;
    }

    public String getIoMode() {
        return ioMode;
    }

    public void setIoMode(String ioMode) {
        this.ioMode = ioMode;
    }

    public static APIClearRefusedIoModeMsg __example__() {
        APIClearRefusedIoModeMsg msg = new APIClearRefusedIoModeMsg();
        msg.setHostUuid("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d");
        msg.setPrimaryStorageUuid("2b7c1e0d9f8a4b6c8d2e3f4a5b6c7d8e");
        msg.setIoMode("io_uring");
        return msg;
    }
}
