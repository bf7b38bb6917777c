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
import org.zstack.aio.server.query.QueryRequest;

import java.util.LinkedHashMap;
import java.util.Map;

@RestController
public class ConfigController {

    private final ConfigService configs;

    public ConfigController(ConfigService configs) {
        this.configs = configs;
    }

    @Operation(operationId = "QueryGlobalConfig")
    @GetMapping("/v1/global-configurations")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return configs.queryGlobal(caller, query);
    }

    @Operation(operationId = "QueryResourceConfig")
    @GetMapping("/v1/resource-configurations")
    public Map<String, Object> listResource(Caller caller, QueryRequest query) {
        return configs.queryResource(caller, query);
    }

    @Operation(operationId = "GetGlobalConfig")
    @GetMapping("/v1/global-configurations/{category}/{name}")
    public Map<String, Object> get(Caller caller, @PathVariable String category, @PathVariable String name) {
        return Map.of("inventory", configs.getGlobal(caller, category, name));
    }

    @Operation(operationId = "UpdateGlobalConfig")
    @PutMapping("/v1/global-configurations/{category}/{name}/actions")
    public Map<String, Object> update(Caller caller, @PathVariable String category, @PathVariable String name,
                                      @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "updateGlobalConfig");
        return Map.of("inventory", configs.updateGlobal(caller, category, name, p.get("value")));
    }

    @Operation(operationId = "UpdateResourceConfig")
    @PutMapping("/v1/resource-configurations/{category}/{name}/{resourceUuid}/actions")
    public Map<String, Object> updateResource(Caller caller, @PathVariable String category, @PathVariable String name,
                                              @PathVariable String resourceUuid, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "updateResourceConfig");
        return Map.of("inventory", configs.updateResource(caller, category, name, resourceUuid, p.get("value")));
    }

    @Operation(operationId = "DeleteResourceConfig")
    @DeleteMapping("/v1/resource-configurations/{category}/{name}/{resourceUuid}")
    public Map<String, Object> deleteResource(Caller caller, @PathVariable String category, @PathVariable String name,
                                              @PathVariable String resourceUuid) {
        configs.deleteResource(caller, category, name, resourceUuid);
        return Map.of();
    }

    @Operation(operationId = "GetResourceConfig")
    @GetMapping("/v1/resource-configurations/{resourceUuid}/{category}/{name}")
    public Map<String, Object> getResource(Caller caller, @PathVariable String resourceUuid,
                                           @PathVariable String category, @PathVariable String name) {
        ConfigService.EffectiveConfig e = configs.getResource(caller, resourceUuid, category, name);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("value", e.value());
        out.put("effectiveConfigs", e.effectiveConfigs());
        return out;
    }
}
