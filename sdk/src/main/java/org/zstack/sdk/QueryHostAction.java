package org.zstack.sdk;

/** Lists hosts. operationId {@code QueryHost}. */
public class QueryHostAction extends QueryAction<QueryHostResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/hosts");
    }

    @Override
    protected Class<QueryHostResult> getResultClass() {
        return QueryHostResult.class;
    }
}
