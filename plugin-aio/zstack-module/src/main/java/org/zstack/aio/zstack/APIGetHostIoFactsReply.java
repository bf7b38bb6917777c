package org.zstack.aio.zstack;

import org.zstack.header.message.APIReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;

/** One host's io facts: {@link HostIoFactsInventory}. */
@RestResponse(allTo = "inventory")
public class APIGetHostIoFactsReply extends APIReply {
    private HostIoFactsInventory inventory;

    public HostIoFactsInventory getInventory() {
        return inventory;
    }

    public void setInventory(HostIoFactsInventory inventory) {
        this.inventory = inventory;
    }

    public static APIGetHostIoFactsReply __example__() {
        APIGetHostIoFactsReply reply = new APIGetHostIoFactsReply();
        HostIoFactsInventory inv = new HostIoFactsInventory();
        inv.setHostUuid("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d");
        inv.setKernel("5.14.0");
        inv.setIoUringDisabled(2);
        inv.setQemu("8.2.0");
        inv.setQemuIoUring(false);
        inv.setQemuIoUringReason("qemu-img: Unable to use io_uring: Operation not permitted");
        inv.setLibvirt("10.0.0");
        inv.setProbes(Collections.<String, String>emptyMap());
        inv.setUnknown(Collections.<String>emptyList());
        inv.setProbeOutput("kernel=5.14.0-427.el9.x86_64\nio_uring_disabled=2\n...");
        inv.setProbedAt("2026-11-26T04:31:11.123Z");
        reply.setInventory(inv);
        return reply;
    }
}
