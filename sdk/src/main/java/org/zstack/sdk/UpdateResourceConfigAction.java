package org.zstack.sdk;

/** Overrides a config on one resource (a volume the caller owns; primary storage: admin only). operationId {@code UpdateResourceConfig}. */
public class UpdateResourceConfigAction extends AbstractAction<UpdateResourceConfigResult> {
    @Param
    public String category;

    @Param
    public String name;

    /** The VolumeVO or PrimaryStorageVO uuid. */
    @Param
    public String resourceUuid;

    /** The value, as a string. */
    @Param
    public String value;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/resource-configurations/{category}/{name}/{resourceUuid}/actions", "updateResourceConfig");
    }

    @Override
    protected Class<UpdateResourceConfigResult> getResultClass() {
        return UpdateResourceConfigResult.class;
    }
}
