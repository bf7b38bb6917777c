package org.zstack.sdk;

/** The accounts the caller may see (an admin: all; a tenant: itself). operationId {@code QueryAccount}. */
public class QueryAccountAction extends QueryAction<QueryAccountResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/accounts");
    }

    @Override
    protected Class<QueryAccountResult> getResultClass() {
        return QueryAccountResult.class;
    }
}
