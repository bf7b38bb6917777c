package org.zstack.aio.server.vm;

import com.fasterxml.jackson.annotation.JsonInclude;
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

import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.plugin.DecisionRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

@RestController
public class VmController {

    private final VmService vms;
    private final VmLifecycle lifecycle;
    private final VmMigration migration;
    private final MigrationTargets targets;
    private final VmAttach attaches;

    public VmController(VmService vms, VmLifecycle lifecycle, VmMigration migration, MigrationTargets targets,
                        VmAttach attaches) {
        this.vms = vms;
        this.lifecycle = lifecycle;
        this.migration = migration;
        this.targets = targets;
        this.attaches = attaches;
    }

    @Operation(operationId = "CreateVmInstance")
    @PostMapping("/v1/vm-instances")
    public Reply.Inventory<VmInventory> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        return Reply.of(vms.create(caller, Bodies.text(p, "name"), Bodies.text(p, "hostUuid"),
                Bodies.number(p, "memorySize", 16L << 20, 1L << 40), (int) Bodies.number(p, "cpuNum", 1, 64),
                p.get("volumeUuids"), p));
    }

    @Operation(operationId = "QueryVmInstance")
    @GetMapping("/v1/vm-instances")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return vms.query(caller, query);
    }

    @Operation(operationId = "GetVmInstance")
    @GetMapping("/v1/vm-instances/{uuid}")
    public Reply.Inventory<VmInventory> get(Caller caller, @PathVariable String uuid) {
        return Reply.of(vms.get(caller, uuid));
    }

    /**
     * {"startVmInstance":{}}, {"stopVmInstance":{}} or {"migrateVm":{"hostUuid":"…"}}; ZStack's StartVmInstanceAction /
     * StopVmInstanceAction / MigrateVmAction.
     */
    @Operation(operationId = "StartVmInstance", description = "also StopVmInstance: {\"stopVmInstance\":{}}, and "
            + "MigrateVm: {\"migrateVm\":{\"hostUuid\":\"<destination>\"}} (live when Running, cold when Stopped)")
    @PutMapping("/v1/vm-instances/{uuid}/actions")
    public VmActionReply action(Caller caller, @PathVariable String uuid, @RequestBody JsonNode body) {
        List<String> names = new ArrayList<>();
        if (body != null && body.isObject()) body.fieldNames().forEachRemaining(names::add);
        if (names.size() != 1 || !body.get(names.get(0)).isObject()) {
            throw new ApiException(ErrorCode.MALFORMED_REQUEST, "the body must name exactly one action.",
                    "Send {\"startVmInstance\":{}}, {\"stopVmInstance\":{}} or {\"migrateVm\":{\"hostUuid\":\"<uuid>\"}}.");
        }
        return switch (names.get(0)) {
            case "startVmInstance" -> {
                VmLifecycle.StartResult r = lifecycle.start(caller, uuid);
                yield new VmActionReply(r.inventory(), r.ioModeDecisions());
            }
            case "stopVmInstance" -> new VmActionReply(lifecycle.stop(caller, uuid), null);
            case "migrateVm" -> new VmActionReply(migration.migrate(caller, uuid,
                    Bodies.optText(body.get("migrateVm"), "hostUuid")), null);
            default -> throw ApiException.badRequest("'" + names.get(0) + "' is not a VM action.",
                    "Use startVmInstance, stopVmInstance or migrateVm.");
        };
    }

    /** A start answers the VM and its disks' decisions; a stop only the VM (no ioModeDecisions field). */
    public record VmActionReply(VmInventory inventory,
                                @JsonInclude(JsonInclude.Include.NON_NULL) List<DecisionRecord> ioModeDecisions) {
    }

    /** Every other connected host, each with what the VM's disks would run there and why (contract §6 Migration). */
    @Operation(operationId = "GetVmMigrationTargetHosts")
    @GetMapping("/v1/vm-instances/{uuid}/migration-target-hosts")
    public Map<String, Object> migrationTargets(Caller caller, @PathVariable String uuid, QueryRequest query) {
        return targets.query(caller, uuid, query);
    }

    @Operation(operationId = "AttachDataVolumeToVm")
    @PostMapping("/v1/volumes/{volumeUuid}/vm-instances/{vmUuid}")
    public VmAttach.AttachResult attach(Caller caller, @PathVariable String volumeUuid, @PathVariable String vmUuid) {
        return attaches.attach(caller, volumeUuid, vmUuid);
    }
}
