package org.zstack.sdk;

/** The audit trail, newest first (admin only). operationId {@code QueryAudit}. */
public class QueryAuditAction extends AbstractAction<QueryAuditResult> {
    /** At most this many entries (1..1000, default 100). */
    @Param(required = false)
    public Integer limit;

    /** Skip this many of the newest entries first. */
    @Param(required = false)
    public Integer start;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/audits");
    }

    @Override
    protected Class<QueryAuditResult> getResultClass() {
        return QueryAuditResult.class;
    }
}
