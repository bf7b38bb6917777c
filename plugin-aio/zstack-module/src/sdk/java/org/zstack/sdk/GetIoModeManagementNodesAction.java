package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/** ZStack Java SDK action for plugin-aio's APIGetIoModeManagementNodesMsg, in the shape of ZStack's generated actions. */
public class GetIoModeManagementNodesAction extends AioGetAction<GetIoModeManagementNodesResult> {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    public GetIoModeManagementNodesAction() {
        super(GetIoModeManagementNodesResult.class, "/io-mode/management-nodes");
    }

    protected Map<String, Parameter> getParameterMap() {
        return parameterMap;
    }

    protected Map<String, Parameter> getNonAPIParameterMap() {
        return nonAPIParameterMap;
    }
}
