package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.message.APIParam;
import org.zstack.header.message.APISyncCallMessage;
import org.zstack.header.rest.RestRequest;
import org.zstack.header.volume.VolumeVO;

/** The io-mode decision applied to a volume at its last VM start or hot-plug. */
@RestRequest(path = "/volumes/{volumeUuid}/io-mode-decision", method = HttpMethod.GET,
        responseClass = APIGetVolumeIoModeDecisionReply.class)
public class APIGetVolumeIoModeDecisionMsg extends APISyncCallMessage {
    @APIParam(resourceType = VolumeVO.class, checkAccount = true)
    private String volumeUuid;

    public String getVolumeUuid() {
        return volumeUuid;
    }

    public void setVolumeUuid(String volumeUuid) {
        this.volumeUuid = volumeUuid;
    }

    public static APIGetVolumeIoModeDecisionMsg __example__() {
        APIGetVolumeIoModeDecisionMsg msg = new APIGetVolumeIoModeDecisionMsg();
        msg.setVolumeUuid("5e1d6a2d8a5a4e8f9d0c3b7a1f2e4d6c");
        return msg;
    }
}
