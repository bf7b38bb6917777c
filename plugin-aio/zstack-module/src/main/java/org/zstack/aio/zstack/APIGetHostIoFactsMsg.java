package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.host.HostVO;
import org.zstack.header.message.APIParam;
import org.zstack.header.message.APISyncCallMessage;
import org.zstack.header.rest.RestRequest;

/** The io facts plugin-aio probed on a KVM host at its last connect, as the io-mode decision reads them. */
@RestRequest(path = "/hosts/{hostUuid}/io-facts", method = HttpMethod.GET, responseClass = APIGetHostIoFactsReply.class)
public class APIGetHostIoFactsMsg extends APISyncCallMessage {
    @APIParam(resourceType = HostVO.class)
    private String hostUuid;

    public String getHostUuid() {
        return hostUuid;
    }

    public void setHostUuid(String hostUuid) {
        this.hostUuid = hostUuid;
    }

    public static APIGetHostIoFactsMsg __example__() {
        APIGetHostIoFactsMsg msg = new APIGetHostIoFactsMsg();
        msg.setHostUuid("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d");
        return msg;
    }
}
