package org.zstack.sdk;

/** An account's quotas and use (its own; any account's for an admin). operationId {@code QueryQuota}. */
public class QueryQuotaAction extends AbstractAction<QueryQuotaResult> {
    /** The account; null for the caller's own. */
    @Param(required = false)
    public String identityUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/accounts/quotas");
    }

    @Override
    protected Class<QueryQuotaResult> getResultClass() {
        return QueryQuotaResult.class;
    }
}
