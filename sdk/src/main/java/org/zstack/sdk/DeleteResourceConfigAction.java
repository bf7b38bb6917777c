package org.zstack.sdk;

/** Removes a resource's override, so it inherits again. operationId {@code DeleteResourceConfig}. */
public class DeleteResourceConfigAction extends AbstractAction<DeleteResourceConfigResult> {
    @Param
    public String category;

    @Param
    public String name;

    @Param
    public String resourceUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.delete("/v1/resource-configurations/{category}/{name}/{resourceUuid}");
    }

    @Override
    protected Class<DeleteResourceConfigResult> getResultClass() {
        return DeleteResourceConfigResult.class;
    }
}
