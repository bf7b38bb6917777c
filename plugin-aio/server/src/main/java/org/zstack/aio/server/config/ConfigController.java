package org.zstack.aio.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.config.ConfigService.GlobalConfigInventory;
import org.zstack.aio.server.config.ConfigService.ResourceConfigInventory;

import java.util.Map;

@RestController
public class ConfigController {

    private final ConfigService configs;

    public ConfigController(ConfigService configs) {
        this.configs = configs;
    }

    @Operation(operationId = "QueryGlobalConfig")
    @GetMapping("/v1/global-configurations")
    public Reply.Inventories<GlobalConfigInventory> list(Caller caller) {
        return Reply.list(configs.listGlobal(caller));
    }

    @Operation(operationId = "GetGlobalConfig")
    @GetMapping("/v1/global-configurations/{category}/{name}")
    public Reply.Inventory<GlobalConfigInventory> get(Caller caller, @PathVariable String category, @PathVariable String name) {
        return Reply.of(configs.getGlobal(caller, category, name));
    }

    @Operation(operationId = "UpdateGlobalConfig")
    @PutMapping("/v1/global-configurations/{category}/{name}/actions")
    public Reply.Inventory<GlobalConfigInventory> update(Caller caller, @PathVariable String category, @PathVariable String name,
                                      @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "updateGlobalConfig");
        return Reply.of(configs.updateGlobal(caller, category, name, p.get("value")));
    }

    @Operation(operationId = "UpdateResourceConfig")
    @PutMapping("/v1/resource-configurations/{category}/{name}/{resourceUuid}/actions")
    public Reply.Inventory<ResourceConfigInventory> updateResource(Caller caller, @PathVariable String category, @PathVariable String name,
                                              @PathVariable String resourceUuid, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "updateResourceConfig");
        return Reply.of(configs.updateResource(caller, category, name, resourceUuid, p.get("value")));
    }

    @Operation(operationId = "DeleteResourceConfig")
    @DeleteMapping("/v1/resource-configurations/{category}/{name}/{resourceUuid}")
    public Map<String, String> deleteResource(Caller caller, @PathVariable String category, @PathVariable String name,
                                              @PathVariable String resourceUuid) {
        configs.deleteResource(caller, category, name, resourceUuid);
        return Reply.empty();
    }

    @Operation(operationId = "GetResourceConfig")
    @GetMapping("/v1/resource-configurations/{resourceUuid}/{category}/{name}")
    public ConfigService.EffectiveConfig getResource(Caller caller, @PathVariable String resourceUuid,
                                           @PathVariable String category, @PathVariable String name) {
        return configs.getResource(caller, resourceUuid, category, name);
    }
}
