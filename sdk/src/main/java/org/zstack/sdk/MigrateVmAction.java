package org.zstack.sdk;

/**
 * Moves a VM to another host: a Running VM live, every disk decided again for the destination host (its answer
 * comes once the VM runs there); a Stopped VM just changes host and decides at its next start. (Same endpoint as
 * StartVmInstance, with {@code {"migrateVm":{"hostUuid":…}}}.) operationId {@code MigrateVm}.
 */
public class MigrateVmAction extends AbstractAction<MigrateVmResult> {
    /** The VM. */
    @Param
    public String uuid;

    /** The destination host; GetVmMigrationTargetHostsAction lists the candidates. */
    @Param
    public String hostUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/vm-instances/{uuid}/actions", "migrateVm");
    }

    @Override
    protected Class<MigrateVmResult> getResultClass() {
        return MigrateVmResult.class;
    }
}
