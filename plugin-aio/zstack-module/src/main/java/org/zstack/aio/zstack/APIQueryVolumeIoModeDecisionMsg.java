package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.query.APIQueryMessage;
import org.zstack.header.query.AutoQuery;
import org.zstack.header.rest.RestRequest;

import java.util.Arrays;
import java.util.List;

/**
 * ZStack's query over the stored decisions (conditions, limit/start, count, sortBy, fields), answered by ZStack's query
 * service (ZQL). A tenant sees the decisions of the volumes its account owns or is shared: ZStack's own account filter
 * applies because the module declares the entity an account-owned resource type ({@link AioIoModeService}).
 */
@AutoQuery(replyClass = APIQueryVolumeIoModeDecisionReply.class, inventoryClass = VolumeIoModeDecisionInventory.class)
@RestRequest(path = "/volume-io-mode-decisions", method = HttpMethod.GET,
        responseClass = APIQueryVolumeIoModeDecisionReply.class)
public class APIQueryVolumeIoModeDecisionMsg extends APIQueryMessage {
    public static List<String> __example__() {
        return Arrays.asList("effective!=native", "hostUuid=8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d");
    }
}
