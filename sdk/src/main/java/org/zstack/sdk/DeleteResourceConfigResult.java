package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** Deleting an override answers nothing. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class DeleteResourceConfigResult {
}
