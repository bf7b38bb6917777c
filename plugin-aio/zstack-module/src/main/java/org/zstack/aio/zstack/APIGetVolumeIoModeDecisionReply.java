package org.zstack.aio.zstack;

import org.zstack.header.message.APIReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;

@RestResponse(allTo = "inventory")
public class APIGetVolumeIoModeDecisionReply extends APIReply {
    private VolumeIoModeDecisionInventory inventory;

    public VolumeIoModeDecisionInventory getInventory() {
        return inventory;
    }

    public void setInventory(VolumeIoModeDecisionInventory inventory) {
        this.inventory = inventory;
    }

    public static APIGetVolumeIoModeDecisionReply __example__() {
        APIGetVolumeIoModeDecisionReply reply = new APIGetVolumeIoModeDecisionReply();
        VolumeIoModeDecisionInventory d = new VolumeIoModeDecisionInventory();
        d.setVolumeUuid("5e1d6a2d8a5a4e8f9d0c3b7a1f2e4d6c");
        d.setOperation(AioIoModeKvmExtension.OPERATION_START);
        d.setChecks(Collections.<IoModeCheckInventory>emptyList());
        reply.setInventory(d);
        return reply;
    }
}
