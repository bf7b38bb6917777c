package org.zstack.sdk;

/** Attaches a data volume to a VM (hot-plugged when the VM runs), with an io-mode decision. operationId {@code AttachDataVolumeToVm}. */
public class AttachDataVolumeToVmAction extends AbstractAction<AttachDataVolumeToVmResult> {
    @Param
    public String volumeUuid;

    @Param
    public String vmUuid;

    @Override
    public RestInfo getRestInfo() {
        return new RestInfo("POST", "/v1/volumes/{volumeUuid}/vm-instances/{vmUuid}", null, true);
    }

    @Override
    protected Class<AttachDataVolumeToVmResult> getResultClass() {
        return AttachDataVolumeToVmResult.class;
    }
}
