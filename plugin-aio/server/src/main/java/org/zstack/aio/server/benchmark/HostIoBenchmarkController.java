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
import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.benchmark.HostIoBenchmarkService.IoBenchmarkInventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The io-mode benchmark of a host's primary storages (admin only). */
@RestController
public class HostIoBenchmarkController {

    private final HostIoBenchmarkService service;

    public HostIoBenchmarkController(HostIoBenchmarkService service) {
        this.service = service;
    }

    /**
     * {"params":{"primaryStorageUuids":[...], "seconds":50, "imageKinds":[...], "workloads":[...]}}: runs now, answers
     * when every storage is measured. imageKinds/workloads narrow the matrix (a quick, honest measurement of the cells
     * one needs); the stored run then holds only those cells.
     */
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
        return Reply.list(service.benchmark(caller, uuid, storages, seconds,
                names(p, "imageKinds", BenchScores.IMAGE_KINDS), names(p, "workloads", BenchScores.WORKLOADS)));
    }

    /** An optional subset of the matrix (null: all of it), each name one the benchmark knows. */
    private static List<String> names(JsonNode p, String field, List<String> known) {
        JsonNode list = p.get(field);
        if (list == null || list.isNull()) return null;
        if (!list.isArray() || list.isEmpty()) {
            throw ApiException.badRequest("field '" + field + "' must be a non-empty JSON array of names.",
                    "Send e.g. \"" + field + "\":[\"" + known.get(0) + "\"], or leave it out to measure all of " + known + ".");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : list) {
            if (!n.isTextual() || !known.contains(n.textValue()) || out.contains(n.textValue())) {
                throw ApiException.badRequest("'" + field + "' holds " + (n.isTextual() ? "'" + n.textValue() + "'" : "a non-string")
                        + (out.contains(n.asText()) ? " twice." : ", which the benchmark does not know."),
                        "List each of " + known + " at most once.");
            }
            out.add(n.textValue());
        }
        return out;
    }

    @Operation(operationId = "QueryHostIoBenchmark")
    @GetMapping("/v1/hosts/{uuid}/io-benchmarks")
    public Map<String, Object> list(Caller caller, @PathVariable String uuid, QueryRequest query) {
        return service.query(caller, uuid, query);
    }
}
