package org.zstack.aio.server.iomode;

import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.server.account.Caller;

@RestController
public class IoModeController {

    private final IoModeService service;

    public IoModeController(IoModeService service) {
        this.service = service;
    }

    /** The decision of CONTRACT §3 for the volume, on host H (default: its VM's host). */
    @Operation(operationId = "GetVolumeIoMode")
    @GetMapping("/v1/volumes/{uuid}/io-mode")
    public IoModeDecision get(Caller caller, @PathVariable String uuid, @RequestParam(required = false) String hostUuid) {
        return service.preview(caller, uuid, hostUuid);
    }
}
