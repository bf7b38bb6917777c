package org.zstack.sdk;

/** Lists primary storage. operationId {@code QueryPrimaryStorage}. */
public class QueryPrimaryStorageAction extends QueryAction<QueryPrimaryStorageResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/primary-storage");
    }

    @Override
    protected Class<QueryPrimaryStorageResult> getResultClass() {
        return QueryPrimaryStorageResult.class;
    }
}
