package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/**
 * ZStack Java SDK action for plugin-aio's APIClearRefusedIoModeMsg ({@code PUT /v1/hosts/{hostUuid}/io-facts/actions},
 * {@code {"clearRefusedIoMode": {...}}}), in the shape of ZStack's generated actions: an asynchronous API, polled.
 */
public class ClearRefusedIoModeAction extends AbstractAction {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    public static class Result {
        public ErrorCode error;
        public org.zstack.sdk.ClearRefusedIoModeResult value;

        public Result throwExceptionIfError() {
            if (error != null) {
                throw new ApiException(
                    String.format("error[code: %s, description: %s, details: %s]", error.code, error.description, error.details)
                );
            }
            return this;
        }
    }

    @Param(required = true, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String hostUuid;

    @Param(required = false, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String primaryStorageUuid;

    @Param(required = false, validValues = {"native", "io_uring"}, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String ioMode;

    @Param(required = false)
    public java.util.List systemTags;

    @Param(required = false)
    public java.util.List userTags;

    @Param(required = false)
    public String sessionId;

    @Param(required = false)
    public String accessKeyId;

    @Param(required = false)
    public String accessKeySecret;

    @Param(required = false)
    public String requestIp;

    @NonAPIParam
    public long timeout = -1;

    @NonAPIParam
    public long pollingInterval = -1;

    private Result makeResult(ApiResult res) {
        Result ret = new Result();
        if (res.error != null) {
            ret.error = res.error;
            return ret;
        }
        org.zstack.sdk.ClearRefusedIoModeResult value = res.getResult(org.zstack.sdk.ClearRefusedIoModeResult.class);
        ret.value = value == null ? new org.zstack.sdk.ClearRefusedIoModeResult() : value;
        return ret;
    }

    public Result call() {
        ApiResult res = ZSClient.call(this);
        return makeResult(res);
    }

    public void call(final Completion<Result> completion) {
        ZSClient.call(this, new InternalCompletion() {
            @Override
            public void complete(ApiResult res) {
                completion.complete(makeResult(res));
            }
        });
    }

    protected Map<String, Parameter> getParameterMap() {
        return parameterMap;
    }

    protected Map<String, Parameter> getNonAPIParameterMap() {
        return nonAPIParameterMap;
    }

    protected RestInfo getRestInfo() {
        RestInfo info = new RestInfo();
        info.httpMethod = "PUT";
        info.path = "/hosts/{hostUuid}/io-facts/actions";
        info.needSession = true;
        info.needPoll = true;
        info.parameterName = "clearRefusedIoMode";
        return info;
    }
}
