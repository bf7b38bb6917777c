package org.zstack.aio.server.volume;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Reply;

@RestController
public class VolumeController {

    private final VolumeService volumes;

    public VolumeController(VolumeService volumes) {
        this.volumes = volumes;
    }

    @Operation(operationId = "CreateDataVolume")
    @PostMapping("/v1/volumes/data")
    public Reply.Inventory<VolumeInventory> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        var cmd = new VolumeService.CreateVolume(Bodies.text(p, "name"), Bodies.number(p, "size", 1L << 20, VolumeService.MAX_SIZE),
                Bodies.text(p, "format"), Bodies.optText(p, "preallocation"), Bodies.text(p, "primaryStorageUuid"),
                Bodies.text(p, "hostUuid"));
        return Reply.of(volumes.create(caller, cmd));
    }

    @Operation(operationId = "QueryVolume")
    @GetMapping("/v1/volumes")
    public Reply.Inventories<VolumeInventory> list(Caller caller) {
        return Reply.list(volumes.list(caller));
    }

    @Operation(operationId = "GetVolume")
    @GetMapping("/v1/volumes/{uuid}")
    public Reply.Inventory<VolumeInventory> get(Caller caller, @PathVariable String uuid) {
        return Reply.of(volumes.get(caller, uuid));
    }
}
