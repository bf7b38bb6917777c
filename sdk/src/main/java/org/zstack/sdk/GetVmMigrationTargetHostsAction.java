package org.zstack.sdk;

/**
 * The hosts a VM could migrate to, each with what every disk would run there and why. operationId
 * {@code GetVmMigrationTargetHosts}.
 */
public class GetVmMigrationTargetHostsAction extends AbstractAction<GetVmMigrationTargetHostsResult> {
    /** The VM. */
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/vm-instances/{uuid}/migration-target-hosts");
    }

    @Override
    protected Class<GetVmMigrationTargetHostsResult> getResultClass() {
        return GetVmMigrationTargetHostsResult.class;
    }
}
