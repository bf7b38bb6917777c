package org.zstack.sdk;

import java.util.Objects;

/**
 * Where and how an action is sent.
 *
 * @param httpMethod    GET, POST, PUT or DELETE
 * @param path          path template under the base URL, e.g. {@code /v1/volumes/{uuid}/io-mode}
 * @param parameterName the key the body's parameters are wrapped in ({@code params}, {@code updateGlobalConfig},
 *                      {@code startVmInstance}, ...), or null when the call has no body
 * @param needSession   whether the call must carry {@code Authorization: OAuth <session uuid>}
 */
public record RestInfo(String httpMethod, String path, String parameterName, boolean needSession) {

    public RestInfo {
        Objects.requireNonNull(httpMethod, "httpMethod");
        Objects.requireNonNull(path, "path");
    }

    public static RestInfo get(String path) {
        return new RestInfo("GET", path, null, true);
    }

    public static RestInfo delete(String path) {
        return new RestInfo("DELETE", path, null, true);
    }

    public static RestInfo post(String path, String parameterName) {
        return new RestInfo("POST", path, parameterName, true);
    }

    public static RestInfo put(String path, String parameterName) {
        return new RestInfo("PUT", path, parameterName, true);
    }

    /** The same call sent without a session (login). */
    public RestInfo withoutSession() {
        return new RestInfo(httpMethod, path, parameterName, false);
    }
}
