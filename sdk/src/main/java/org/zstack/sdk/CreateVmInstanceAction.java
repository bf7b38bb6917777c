package org.zstack.sdk;

import java.util.List;

/** Creates a Stopped VM on a host with its volumes. operationId {@code CreateVmInstance}. */
public class CreateVmInstanceAction extends AbstractAction<CreateVmInstanceResult> {
    @Param
    public String name;

    @Param
    public String hostUuid;

    /** Bytes. */
    @Param
    public Long memorySize;

    @Param
    public Integer cpuNum;

    /** The VM's volumes, in device order. */
    @Param
    public List<String> volumeUuids;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/vm-instances", "params");
    }

    @Override
    protected Class<CreateVmInstanceResult> getResultClass() {
        return CreateVmInstanceResult.class;
    }
}
