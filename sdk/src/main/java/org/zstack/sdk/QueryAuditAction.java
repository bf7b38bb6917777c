package org.zstack.sdk;

/** The audit trail with the query API's conditions and paging, newest first by default (admin only). operationId {@code QueryAudit}. */
public class QueryAuditAction extends QueryAction<QueryAuditResult> {

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/audits");
    }

    @Override
    protected Class<QueryAuditResult> getResultClass() {
        return QueryAuditResult.class;
    }
}
