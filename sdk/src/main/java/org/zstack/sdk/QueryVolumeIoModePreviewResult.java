package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** One decision per visible volume. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryVolumeIoModePreviewResult {
    public List<IoModeDecisionInventory> inventories;
}
