package org.zstack.sdk;

/** Stops a VM. (Same endpoint as StartVmInstance, with {@code {"stopVmInstance":{}}}.) operationId {@code StopVmInstance}. */
public class StopVmInstanceAction extends AbstractAction<StopVmInstanceResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/vm-instances/{uuid}/actions", "stopVmInstance");
    }

    @Override
    protected Class<StopVmInstanceResult> getResultClass() {
        return StopVmInstanceResult.class;
    }
}
