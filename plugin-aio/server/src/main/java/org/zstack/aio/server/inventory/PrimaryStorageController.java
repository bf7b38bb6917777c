package org.zstack.aio.server.inventory;

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
import org.zstack.aio.server.inventory.Inventories.PrimaryStorageInventory;

@RestController
public class PrimaryStorageController {

    private final PrimaryStorageService storages;

    public PrimaryStorageController(PrimaryStorageService storages) {
        this.storages = storages;
    }

    @Operation(operationId = "AddPrimaryStorage")
    @PostMapping("/v1/primary-storage")
    public Reply.Inventory<PrimaryStorageInventory> add(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        return Reply.of(storages.add(caller, Bodies.text(p, "name"), Bodies.text(p, "type"), Bodies.text(p, "url")));
    }

    @Operation(operationId = "QueryPrimaryStorage")
    @GetMapping("/v1/primary-storage")
    public Reply.Inventories<PrimaryStorageInventory> list(Caller caller) {
        return Reply.list(storages.list(caller));
    }

    @Operation(operationId = "GetPrimaryStorage")
    @GetMapping("/v1/primary-storage/{uuid}")
    public Reply.Inventory<PrimaryStorageInventory> get(Caller caller, @PathVariable String uuid) {
        return Reply.of(storages.get(caller, uuid));
    }
}
