package org.zstack.sdk;

/** Adds a KVM host (admin only); the server connects to its agent and stores its facts. operationId {@code AddKVMHost}. */
public class AddKVMHostAction extends AbstractAction<AddKVMHostResult> {
    @Param
    public String name;

    /** The address the agent listens on. */
    @Param
    public String managementIp;

    /** The agent's port; null for 7070. */
    @Param(required = false)
    public Integer agentPort;

    /** The agent's enrollment token: the output of {@code bin/aio-agent enrollment} on that host. */
    @Param
    public String agentEnrollment;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/hosts/kvm", "params");
    }

    @Override
    protected Class<AddKVMHostResult> getResultClass() {
        return AddKVMHostResult.class;
    }
}
