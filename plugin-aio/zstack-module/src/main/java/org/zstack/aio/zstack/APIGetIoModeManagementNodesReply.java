package org.zstack.aio.zstack;

import org.zstack.header.message.APIReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;
import java.util.List;

/** Every running ZStack management node, with the module's version where it runs the module. */
@RestResponse(allTo = "inventories")
public class APIGetIoModeManagementNodesReply extends APIReply {
    private List<IoModeManagementNodeInventory> inventories;

    public List<IoModeManagementNodeInventory> getInventories() {
        return inventories;
    }

    public void setInventories(List<IoModeManagementNodeInventory> inventories) {
        this.inventories = inventories;
    }

    public static APIGetIoModeManagementNodesReply __example__() {
        APIGetIoModeManagementNodesReply reply = new APIGetIoModeManagementNodesReply();
        IoModeManagementNodeInventory inv = new IoModeManagementNodeInventory();
        inv.setManagementNodeUuid("5d8f9a1e2b3c4d5e6f708192a3b4c5d6");
        inv.setHostName("192.168.0.10");
        inv.setRunsModule(true);
        inv.setModuleVersion("1.0.0");
        inv.setBuiltForZStack("5.2.0");
        inv.setModuleStartedAt("2026-11-26T04:31:11.123Z");
        reply.setInventories(Collections.singletonList(inv));
        return reply;
    }
}
