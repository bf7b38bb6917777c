package org.zstack.aio.zstack;

import org.zstack.header.query.APIQueryReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;
import java.util.List;

@RestResponse(allTo = "inventories")
public class APIQueryVolumeIoModeDecisionReply extends APIQueryReply {
    private List<VolumeIoModeDecisionInventory> inventories;

    public List<VolumeIoModeDecisionInventory> getInventories() {
        return inventories;
    }

    public void setInventories(List<VolumeIoModeDecisionInventory> inventories) {
        this.inventories = inventories;
    }

    public static APIQueryVolumeIoModeDecisionReply __example__() {
        APIQueryVolumeIoModeDecisionReply reply = new APIQueryVolumeIoModeDecisionReply();
        reply.setInventories(Collections.<VolumeIoModeDecisionInventory>emptyList());
        return reply;
    }
}
