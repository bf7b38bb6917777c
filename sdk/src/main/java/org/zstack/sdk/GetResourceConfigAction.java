package org.zstack.sdk;

/** Reads the value a resource gets for a config, with every level that sets it. operationId {@code GetResourceConfig}. */
public class GetResourceConfigAction extends AbstractAction<GetResourceConfigResult> {
    @Param
    public String resourceUuid;

    @Param
    public String category;

    @Param
    public String name;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/resource-configurations/{resourceUuid}/{category}/{name}");
    }

    @Override
    protected Class<GetResourceConfigResult> getResultClass() {
        return GetResourceConfigResult.class;
    }
}
