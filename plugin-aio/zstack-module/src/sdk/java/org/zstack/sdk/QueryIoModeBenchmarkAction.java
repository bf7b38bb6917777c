package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/**
 * ZStack Java SDK action for plugin-aio's APIQueryIoModeBenchmarkMsg (admin only), in the shape of ZStack's generated query
 * actions: conditions, limit, start, count, replyWithCount, sortBy, sortDirection and fields come from QueryAction.
 */
public class QueryIoModeBenchmarkAction extends QueryAction {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    public static class Result {
        public ErrorCode error;
        public QueryIoModeBenchmarkResult value;

        public Result throwExceptionIfError() {
            if (error != null) {
                throw new ApiException(
                    String.format("error[code: %s, description: %s, details: %s]", error.code, error.description, error.details)
                );
            }
            return this;
        }
    }

    private Result makeResult(ApiResult res) {
        Result ret = new Result();
        if (res.error != null) {
            ret.error = res.error;
            return ret;
        }
        QueryIoModeBenchmarkResult value = res.getResult(QueryIoModeBenchmarkResult.class);
        ret.value = value == null ? new QueryIoModeBenchmarkResult() : value;
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
        info.httpMethod = "GET";
        info.path = "/io-mode-benchmarks";
        info.needSession = true;
        info.needPoll = false;
        info.parameterName = "";
        return info;
    }
}
