package org.zstack.sdk;

/** Per-resource config overrides the caller may see (a tenant: those on its own volumes). operationId {@code QueryResourceConfig}. */
public class QueryResourceConfigAction extends QueryAction<QueryResourceConfigResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/resource-configurations");
    }

    @Override
    protected Class<QueryResourceConfigResult> getResultClass() {
        return QueryResourceConfigResult.class;
    }
}
