package org.zstack.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/** Asks for the io-mode decision for a volume, on a host (default: its VM's host). operationId {@code GetVolumeIoMode}. */
public class GetVolumeIoModeAction extends AbstractAction<GetVolumeIoModeResult> {
    /** The volume. */
    @Param
    public String uuid;

    /** The host to decide for; null for the host of the volume's VM. */
    @Param(required = false)
    public String hostUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/volumes/{uuid}/io-mode");
    }

    @Override
    protected Class<GetVolumeIoModeResult> getResultClass() {
        return GetVolumeIoModeResult.class;
    }

    /** The answer is the decision itself, not a wrapper. */
    @Override
    protected GetVolumeIoModeResult readResult(JsonNode answer, ObjectMapper mapper) throws IOException {
        GetVolumeIoModeResult r = new GetVolumeIoModeResult();
        r.decision = mapper.treeToValue(answer, IoModeDecisionInventory.class);
        return r;
    }
}
