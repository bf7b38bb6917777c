package org.zstack.sdk;

/** Lists every global config (admin only). operationId {@code QueryGlobalConfig}. */
public class QueryGlobalConfigAction extends QueryAction<QueryGlobalConfigResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/global-configurations");
    }

    @Override
    protected Class<QueryGlobalConfigResult> getResultClass() {
        return QueryGlobalConfigResult.class;
    }
}
