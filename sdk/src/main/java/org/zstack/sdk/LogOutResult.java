package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** Logging out answers nothing. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class LogOutResult {
}
