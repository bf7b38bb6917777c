package org.zstack.sdk;

/**
 * What plugin-aio's query SDK actions share, in the shape of ZStack's generated query actions (conditions, limit,
 * start, count, replyWithCount, sortBy, sortDirection and fields come from QueryAction): a synchronous GET on
 * {@code path} and a {@link Result} whose value is the action's result class. Each action declares its own parameter
 * maps (ZStack's AbstractAction fills them per class).
 */
public abstract class AioQueryAction<V> extends QueryAction {

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

    private final Class<V> valueClass;
    private final String path;

    protected AioQueryAction(Class<V> valueClass, String path) {
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
