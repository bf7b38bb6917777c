package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/**
 * ZStack Java SDK action for plugin-aio's APIRunIoModeBenchmarkMsg (admin only), in the shape of ZStack's generated
 * actions: POST /hosts/{hostUuid}/io-mode-benchmarks, polled until the benchmark has ended (at most budgetSeconds plus
 * a few calls). For progress and cancel, submit it as a long job instead (SubmitLongJobAction, jobName
 * APIRunIoModeBenchmarkMsg, jobData these fields as JSON).
 */
public class RunIoModeBenchmarkAction extends AbstractAction {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    public static class Result {
        public ErrorCode error;
        public RunIoModeBenchmarkResult value;

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

    @Param(required = true, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String primaryStorageUuid;

    @Param(required = false, maxLength = 32, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.String imageKind;

    @Param(required = false, numberRange = {1L, 600L}, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.Integer budgetSeconds;

    @Param(required = false, numberRange = {1L, 9L}, nonempty = false, nullElements = false, emptyString = true, noTrim = false)
    public java.lang.Integer runSecondsMax;

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
        RunIoModeBenchmarkResult value = res.getResult(RunIoModeBenchmarkResult.class);
        ret.value = value == null ? new RunIoModeBenchmarkResult() : value;
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
        info.httpMethod = "POST";
        info.path = "/hosts/{hostUuid}/io-mode-benchmarks";
        info.needSession = true;
        info.needPoll = true;
        info.parameterName = "params";
        return info;
    }
}
