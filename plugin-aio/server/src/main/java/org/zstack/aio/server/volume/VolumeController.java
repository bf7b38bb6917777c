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
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.api.Reply;

import java.util.Map;

@RestController
public class VolumeController {

    private final VolumeService volumes;

    public VolumeController(VolumeService volumes) {
        this.volumes = volumes;
    }

    @Operation(operationId = "CreateDataVolume")
    @PostMapping("/v1/volumes/data")
    public Reply.Inventory<VolumeInventory> create(Caller caller, @RequestBody JsonNode body) {
        return Reply.of(volumes.create(caller, CreateVolumeParams.read(Bodies.action(body, "params"))));
    }

    @Operation(operationId = "QueryVolume")
    @GetMapping("/v1/volumes")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return volumes.query(caller, query);
    }

    @Operation(operationId = "GetVolume")
    @GetMapping("/v1/volumes/{uuid}")
    public Reply.Inventory<VolumeInventory> get(Caller caller, @PathVariable String uuid) {
        return Reply.of(volumes.get(caller, uuid));
    }
}
