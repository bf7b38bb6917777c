package org.zstack.aio.server.iomode;

import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.query.QueryRequest;

import java.util.List;
import java.util.Map;

@RestController
public class IoModeController {

    private final IoModeDecisions service;
    private final IoModeOverview overview;
    private final IoModePreviews previews;

    public IoModeController(IoModeDecisions service, IoModeOverview overview, IoModePreviews previews) {
        this.service = service;
        this.overview = overview;
        this.previews = previews;
    }

    /**
     * What the next start would decide for every volume the caller can see, selected with ZStack's query parameters
     * on the volumes' fields, or only for the volumes named by {@code volumeUuid} (repeatable, at most
     * {@value IoModeOverview#MAX_NAMED}: one page of a volume list).
     */
    @Operation(operationId = "QueryVolumeIoModePreview")
    @GetMapping("/v1/io-mode/previews")
    public Map<String, Object> previews(Caller caller, QueryRequest query,
                                        @RequestParam(name = "volumeUuid", required = false) List<String> volumeUuids) {
        return previews.answer(caller, query, volumeUuids);
    }

    /** The impact of setting a global config to value: modes per volume before/after, fallbacks grouped by reason. */
    @Operation(operationId = "GetGlobalConfigImpact")
    @GetMapping("/v1/io-mode/impact")
    public Reply.Inventory<IoModeOverview.Impact> impact(Caller caller, @RequestParam String category, @RequestParam String name,
                                                @RequestParam String value) {
        return Reply.of(overview.impact(caller, category, name, value));
    }

    /** The decision of docs/contract.md, "The decision" for the volume, on host H (default: its VM's host). */
    @Operation(operationId = "GetVolumeIoMode")
    @GetMapping("/v1/volumes/{uuid}/io-mode")
    public IoModeDecisionInventory get(Caller caller, @PathVariable String uuid, @RequestParam(required = false) String hostUuid) {
        return IoModeDecisionInventory.of(service.preview(caller, uuid, hostUuid));
    }
}
