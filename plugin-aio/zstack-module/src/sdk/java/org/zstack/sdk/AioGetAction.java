package org.zstack.sdk;

import java.util.Map;

/**
 * What plugin-aio's read-only SDK actions share, in the shape of ZStack's generated actions: the session and tag
 * parameters, a synchronous GET on {@code path}, and a {@link Result} whose value is the action's result class. Each
 * action declares its own path parameter and its own parameter maps (ZStack's AbstractAction fills them per class).
 */
public abstract class AioGetAction<V> extends AbstractAction {

    public static class Result<V> {
        public ErrorCode error;
        public V value;

        public Result<V> throwExceptionIfError() {
            if (error != null) {
                throw new ApiException(
                    String.format("error[code: %s, description: %s, details: %s]", error.code, error.description, error.details)
                );
            }
            return this;
        }
    }

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

    private final Class<V> valueClass;
    private final String path;

    protected AioGetAction(Class<V> valueClass, String path) {
        this.valueClass = valueClass;
        this.path = path;
    }

    private Result<V> makeResult(ApiResult res) {
        Result<V> ret = new Result<V>();
        if (res.error != null) {
            ret.error = res.error;
            return ret;
        }
        V value = res.getResult(valueClass);
        try {
            ret.value = value == null ? valueClass.newInstance() : value;
        } catch (InstantiationException | IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        return ret;
    }

    public Result<V> call() {
        ApiResult res = ZSClient.call(this);
        return makeResult(res);
    }

    public void call(final Completion<Result<V>> completion) {
        ZSClient.call(this, new InternalCompletion() {
            @Override
            public void complete(ApiResult res) {
                completion.complete(makeResult(res));
            }
        });
    }

    @Override
    protected abstract Map<String, Parameter> getParameterMap();

    @Override
    protected abstract Map<String, Parameter> getNonAPIParameterMap();

    protected RestInfo getRestInfo() {
        RestInfo info = new RestInfo();
        info.httpMethod = "GET";
        info.path = path;
        info.needSession = true;
        info.needPoll = false;
        info.parameterName = "";
        return info;
    }
}
