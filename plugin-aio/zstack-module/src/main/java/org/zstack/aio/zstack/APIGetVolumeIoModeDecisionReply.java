package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.header.message.APIReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;

/** The stored decision of one volume: the core's {@link DecisionRecord}, the view both platforms' APIs return. */
@RestResponse(allTo = "inventory")
public class APIGetVolumeIoModeDecisionReply extends APIReply {
    private DecisionRecord inventory;

    public DecisionRecord getInventory() {
        return inventory;
    }

    public void setInventory(DecisionRecord inventory) {
        this.inventory = inventory;
    }

    public static APIGetVolumeIoModeDecisionReply __example__() {
        APIGetVolumeIoModeDecisionReply reply = new APIGetVolumeIoModeDecisionReply();
        reply.setInventory(new DecisionRecord("5e1d6a2d8a5a4e8f9d0c3b7a1f2e4d6c", "0c3b7a1f2e4d6c5e1d6a2d8a5a4e8f9d",
                "8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d", "start", "threads", "global", "threads", false,
                Collections.<DecisionRecord.CheckRecord>emptyList(), "threads was requested (global) and its checks pass.",
                null, null, null, null, "2026-11-26T04:31:11.123Z"));
        return reply;
    }
}
