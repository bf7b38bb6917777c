package org.zstack.sdk;

import java.util.List;
import java.util.Map;

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

    /** Optional direct kernel boot: kernel, initrd, cmdline, consoleLog (paths inside a primary storage). */
    @Param(required = false)
    public Map<String, String> boot;

    /** Optional: "tcg" (emulated CPU) or "kvm"; absent: the host's default. */
    @Param(required = false)
    public String accel;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/vm-instances", "params");
    }

    @Override
    protected Class<CreateVmInstanceResult> getResultClass() {
        return CreateVmInstanceResult.class;
    }
}
