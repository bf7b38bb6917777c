package org.zstack.sdk;

/** Sets one quota of an account (admin only). operationId {@code UpdateQuota}. */
public class UpdateQuotaAction extends AbstractAction<UpdateQuotaResult> {
    /** The account. */
    @Param
    public String identityUuid;
    /** {@code vm.num} or {@code volume.capacity}. */
    @Param
    public String name;
    /** The limit: a count, or bytes. */
    @Param
    public Long value;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/accounts/quotas/actions", "updateQuota");
    }

    @Override
    protected Class<UpdateQuotaResult> getResultClass() {
        return UpdateQuotaResult.class;
    }
}
