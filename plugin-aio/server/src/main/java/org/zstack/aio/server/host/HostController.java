package org.zstack.aio.server.host;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.host.HostService.HostInventory;

import java.util.Map;

@RestController
public class HostController {

    private final HostService hosts;

    public HostController(HostService hosts) {
        this.hosts = hosts;
    }

    @Operation(operationId = "AddKVMHost")
    @PostMapping("/v1/hosts/kvm")
    public Reply.Inventory<HostInventory> add(Caller caller, @RequestBody JsonNode body) {
        AddHostParams p = AddHostParams.read(Bodies.action(body, "params"));
        return Reply.of(hosts.add(caller, p.name(), p.managementIp(), p.agentPort(), p.agentEnrollment()));
    }

    @Operation(operationId = "ReconnectHost")
    @PutMapping("/v1/hosts/{uuid}/actions")
    public Reply.Inventory<HostInventory> reconnect(Caller caller, @PathVariable String uuid, @RequestBody JsonNode body) {
        JsonNode a = Bodies.action(body, "reconnectHost");
        return Reply.of(hosts.reconnect(caller, uuid, Bodies.optText(a, "agentEnrollment")));
    }

    @Operation(operationId = "QueryHost")
    @GetMapping("/v1/hosts")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return hosts.query(caller, query);
    }

    /** The host's io facts, the same inventory as ZStack's GetHostIoFacts (SDK HostIoFactsInventory). */
    @Operation(operationId = "GetHostIoFacts")
    @GetMapping("/v1/hosts/{uuid}/io-facts")
    public Reply.Inventory<HostIoFacts> ioFacts(Caller caller, @PathVariable String uuid) {
        return Reply.of(hosts.ioFacts(caller, uuid));
    }

    @Operation(operationId = "GetHost")
    @GetMapping("/v1/hosts/{uuid}")
    public Reply.Inventory<HostInventory> get(Caller caller, @PathVariable String uuid) {
        return Reply.of(hosts.get(caller, uuid));
    }
}
