package org.zstack.aio.zstack;

import org.zstack.aio.decision.Version;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.header.message.APIReply;
import org.zstack.header.rest.RestResponse;

/**
 * One host's io facts: the core's one host-facts contract, {@link HostIoFacts}, as it is (SDK class
 * {@code org.zstack.sdk.HostIoFactsInventory}, the same source for both SDKs).
 */
@RestResponse(allTo = "inventory")
public class APIGetHostIoFactsReply extends APIReply {
    private HostIoFacts inventory;

    public HostIoFacts getInventory() {
        return inventory;
    }

    public void setInventory(HostIoFacts inventory) {
        this.inventory = inventory;
    }

    public static APIGetHostIoFactsReply __example__() {
        APIGetHostIoFactsReply reply = new APIGetHostIoFactsReply();
        reply.setInventory(HostIoFacts.builder("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d").kernel(Version.parse("5.14.0"))
                .ioUringDisabled(2).qemu(Version.parse("8.2.0"))
                .qemuIoUring(false, "qemu-img: Unable to use io_uring: Operation not permitted")
                .libvirt(Version.parse("10.0.0")).agent("ZStack's agent")
                .raw("kernel=5.14.0-427.el9.x86_64\nio_uring_disabled=2\n...", null).probedAt("2026-11-26T04:31:11.123Z")
                .build());
        return reply;
    }
}
