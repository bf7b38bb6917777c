package org.zstack.sdk;

/** Sets a global config (admin only); the value is validated against the config's definition. operationId {@code UpdateGlobalConfig}. */
public class UpdateGlobalConfigAction extends AbstractAction<UpdateGlobalConfigResult> {
    /** e.g. {@code kvm} */
    @Param
    public String category;

    /** e.g. {@code vm.ioMode} */
    @Param
    public String name;

    /** The new value, as a string (e.g. {@code native}). */
    @Param
    public String value;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/global-configurations/{category}/{name}/actions", "updateGlobalConfig");
    }

    @Override
    protected Class<UpdateGlobalConfigResult> getResultClass() {
        return UpdateGlobalConfigResult.class;
    }
}
