package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/** ZStack Java SDK action for plugin-aio's APIGetHostIoFactsMsg, in the shape of ZStack's generated actions. */
public class GetHostIoFactsAction extends AioGetAction<GetHostIoFactsResult> {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    @Param(required = true, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String hostUuid;

    public GetHostIoFactsAction() {
        super(GetHostIoFactsResult.class, "/hosts/{hostUuid}/io-facts");
    }

    protected Map<String, Parameter> getParameterMap() {
        return parameterMap;
    }

    protected Map<String, Parameter> getNonAPIParameterMap() {
        return nonAPIParameterMap;
    }
}
