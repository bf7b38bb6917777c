package org.zstack.aio.server.vm;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.volume.VolumeService;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@RestController
public class VmController {

    private final VmService vms;
    private final VmLifecycle lifecycle;
    private final VolumeService volumes;

    public VmController(VmService vms, VmLifecycle lifecycle, VolumeService volumes) {
        this.vms = vms;
        this.lifecycle = lifecycle;
        this.volumes = volumes;
    }

    @Operation(operationId = "CreateVmInstance")
    @PostMapping("/v1/vm-instances")
    public Map<String, Object> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        return Map.of("inventory", vms.create(caller, Bodies.text(p, "name"), Bodies.text(p, "hostUuid"),
                Bodies.number(p, "memorySize", 16L << 20, 1L << 40), (int) Bodies.number(p, "cpuNum", 1, 64),
                p.get("volumeUuids")));
    }

    @Operation(operationId = "QueryVmInstance")
    @GetMapping("/v1/vm-instances")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return vms.query(caller, query);
    }

    @Operation(operationId = "GetVmInstance")
    @GetMapping("/v1/vm-instances/{uuid}")
    public Map<String, Object> get(Caller caller, @PathVariable String uuid) {
        return Map.of("inventory", vms.get(caller, uuid));
    }

    /** {"startVmInstance":{}} or {"stopVmInstance":{}}; ZStack's StartVmInstanceAction / StopVmInstanceAction. */
    @Operation(operationId = "StartVmInstance", description = "also StopVmInstance: {\"stopVmInstance\":{}}")
    @PutMapping("/v1/vm-instances/{uuid}/actions")
    public Map<String, Object> action(Caller caller, @PathVariable String uuid, @RequestBody JsonNode body) {
        List<String> names = new java.util.ArrayList<>();
        if (body != null && body.isObject()) body.fieldNames().forEachRemaining(names::add);
        if (names.size() != 1 || !body.get(names.get(0)).isObject()) {
            throw new ApiException(ErrorCode.MALFORMED_REQUEST, "the body must name exactly one action.",
                    "Send {\"startVmInstance\":{}} or {\"stopVmInstance\":{}}.");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        switch (names.get(0)) {
            case "startVmInstance" -> {
                VmLifecycle.StartResult r = lifecycle.start(caller, uuid);
                out.put("inventory", r.inventory());
                out.put("ioModeDecisions", r.ioModeDecisions());
            }
            case "stopVmInstance" -> out.put("inventory", lifecycle.stop(caller, uuid));
            default -> throw ApiException.badRequest("'" + names.get(0) + "' is not a VM action.",
                    "Use startVmInstance or stopVmInstance.");
        }
        return out;
    }

    @Operation(operationId = "AttachDataVolumeToVm")
    @PostMapping("/v1/volumes/{volumeUuid}/vm-instances/{vmUuid}")
    public Map<String, Object> attach(Caller caller, @PathVariable String volumeUuid, @PathVariable String vmUuid) {
        VmLifecycle.AttachResult r = lifecycle.attach(caller, volumeUuid, vmUuid,
                v -> volumes.inventories(List.of(v)).get(0));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("inventory", r.inventory());
        out.put("ioModeDecision", r.ioModeDecision());
        return out;
    }
}
