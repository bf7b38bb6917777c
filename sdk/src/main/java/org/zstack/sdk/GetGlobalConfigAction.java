package org.zstack.sdk;

/** Reads one global config (admin only). operationId {@code GetGlobalConfig}. */
public class GetGlobalConfigAction extends AbstractAction<GetGlobalConfigResult> {
    /** e.g. {@code kvm} */
    @Param
    public String category;

    /** e.g. {@code vm.ioMode} */
    @Param
    public String name;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/global-configurations/{category}/{name}");
    }

    @Override
    protected Class<GetGlobalConfigResult> getResultClass() {
        return GetGlobalConfigResult.class;
    }
}
