package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.message.APISyncCallMessage;
import org.zstack.header.rest.RestRequest;

/**
 * Which of ZStack's management nodes run plugin-aio, and which version: during a rolling install, a VM start handled
 * by a node without the module is not decided (docs/zstack-module.md, "Several management nodes").
 */
@RestRequest(path = "/io-mode/management-nodes", method = HttpMethod.GET, responseClass = APIGetIoModeManagementNodesReply.class)
public class APIGetIoModeManagementNodesMsg extends APISyncCallMessage {
    public static APIGetIoModeManagementNodesMsg __example__() {
        return new APIGetIoModeManagementNodesMsg();
    }
}
