package org.zstack.aio.server.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.benchmark.HostIoBenchmarkService.IoBenchmarkInventory;

import java.util.ArrayList;
import java.util.List;

/** The io-mode benchmark of a host's primary storages (admin only). */
@RestController
public class HostIoBenchmarkController {

    private final HostIoBenchmarkService service;

    public HostIoBenchmarkController(HostIoBenchmarkService service) {
        this.service = service;
    }

    /** {"params":{"primaryStorageUuids":[...], "seconds":50}}: runs now, answers when every storage is measured. */
    @Operation(operationId = "BenchmarkHostIo")
    @PostMapping("/v1/hosts/{uuid}/io-benchmarks")
    public Reply.Inventories<IoBenchmarkInventory> benchmark(Caller caller, @PathVariable String uuid, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        Integer seconds = p.hasNonNull("seconds")
                ? (int) Bodies.number(p, "seconds", 1, HostIoBenchmarkService.MAX_SECONDS) : null;
        List<String> storages = new ArrayList<>();
        JsonNode list = p.get("primaryStorageUuids");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw ApiException.badRequest("field 'primaryStorageUuids' must be a JSON array of uuids.",
                        "Send e.g. \"primaryStorageUuids\":[\"...\"], or leave it out for every file storage.");
            }
            list.forEach(n -> {
                if (!n.isTextual()) throw ApiException.badRequest("'primaryStorageUuids' holds a non-string.", "Send uuids.");
                if (storages.contains(n.textValue())) {
                    throw ApiException.badRequest("primary storage " + n.textValue() + " is listed twice.", "List each once.");
                }
                storages.add(n.textValue());
            });
        }
        return Reply.list(service.benchmark(caller, uuid, storages, seconds));
    }

    @Operation(operationId = "QueryHostIoBenchmark")
    @GetMapping("/v1/hosts/{uuid}/io-benchmarks")
    public Reply.Inventories<IoBenchmarkInventory> list(Caller caller, @PathVariable String uuid) {
        return Reply.list(service.list(caller, uuid));
    }
}
