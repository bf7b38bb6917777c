package org.zstack.sdk;

/** Starts a VM; the answer lists the io-mode decision applied to each volume. A refused decision refuses the start. operationId {@code StartVmInstance}. */
public class StartVmInstanceAction extends AbstractAction<StartVmInstanceResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/vm-instances/{uuid}/actions", "startVmInstance");
    }

    @Override
    protected Class<StartVmInstanceResult> getResultClass() {
        return StartVmInstanceResult.class;
    }
}
