package org.zstack.aio.zstack;

import org.zstack.aio.plugin.RefusedIoMode;
import org.zstack.header.message.APIEvent;
import org.zstack.header.rest.RestResponse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The refusals {@link APIClearRefusedIoModeMsg} cleared, as the host-facts API showed them (the core's
 * {@link RefusedIoMode}; SDK class {@code org.zstack.sdk.RefusedIoModeInventory}); empty when none was remembered.
 */
@RestResponse(allTo = "inventories")
public class APIClearRefusedIoModeEvent extends APIEvent {
    private List<RefusedIoMode> inventories = new ArrayList<>();

    public APIClearRefusedIoModeEvent() {
    }

    public APIClearRefusedIoModeEvent(String apiId) {
        super(apiId);
    }

    public List<RefusedIoMode> getInventories() {
        return inventories;
    }

    public void setInventories(List<RefusedIoMode> inventories) {
        this.inventories = inventories;
    }

    public static APIClearRefusedIoModeEvent __example__() {
        APIClearRefusedIoModeEvent evt = new APIClearRefusedIoModeEvent();
        evt.setInventories(Collections.singletonList(new RefusedIoMode("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d",
                "2b7c1e0d9f8a4b6c8d2e3f4a5b6c7d8e", "io_uring", "qemu-io_uring-ring-init", "QEMU",
                "Unable to use io_uring: failed to init linux io_uring ring: Operation not permitted",
                "5c1d7e2f3a4b4c6d8e9f0a1b2c3d4e5f", "6d2e8f3a4b5c4d7e9f0a1b2c3d4e5f6a", "2026-11-27T10:00:00.000Z", "7.2.0",
                "9.0.0", java.util.Arrays.asList("admin", "readBack"))));
        return evt;
    }
}
