package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/** ZStack Java SDK action for plugin-aio's APIGetVolumeIoModeDecisionMsg, in the shape of ZStack's generated actions. */
public class GetVolumeIoModeDecisionAction extends AioGetAction<GetVolumeIoModeDecisionResult> {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    @Param(required = true, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String volumeUuid;

    public GetVolumeIoModeDecisionAction() {
        super(GetVolumeIoModeDecisionResult.class, "/volumes/{volumeUuid}/io-mode-decision");
    }

    protected Map<String, Parameter> getParameterMap() {
        return parameterMap;
    }

    protected Map<String, Parameter> getNonAPIParameterMap() {
        return nonAPIParameterMap;
    }
}
