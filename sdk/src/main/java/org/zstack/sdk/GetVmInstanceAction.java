package org.zstack.sdk;

/** Reads a VM. operationId {@code GetVmInstance}. */
public class GetVmInstanceAction extends AbstractAction<GetVmInstanceResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/vm-instances/{uuid}");
    }

    @Override
    protected Class<GetVmInstanceResult> getResultClass() {
        return GetVmInstanceResult.class;
    }
}
