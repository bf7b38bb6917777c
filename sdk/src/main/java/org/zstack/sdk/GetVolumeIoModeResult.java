package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The io-mode decision the server would make now for the volume (nothing is stored). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetVolumeIoModeResult {
    public IoModeDecisionInventory decision;
}
