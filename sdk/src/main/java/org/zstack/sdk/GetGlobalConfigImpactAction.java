package org.zstack.sdk;

/**
 * What setting a global config to {@code value} would do to every volume, without changing it (admin only).
 * operationId {@code GetGlobalConfigImpact}.
 */
public class GetGlobalConfigImpactAction extends AbstractAction<GetGlobalConfigImpactResult> {
    @Param
    public String category;

    @Param
    public String name;

    @Param
    public String value;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/io-mode/impact");
    }

    @Override
    protected Class<GetGlobalConfigImpactResult> getResultClass() {
        return GetGlobalConfigImpactResult.class;
    }
}
