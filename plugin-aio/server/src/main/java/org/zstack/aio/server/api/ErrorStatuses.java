package org.zstack.aio.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The contract's body for an error known only by its HTTP status: what the servlet container itself refuses (a bad
 * URI, an oversized header, a path no handler matched) before any of our code saw the request.
 */
public final class ErrorStatuses {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorStatuses() {
    }

    private record Known(ErrorCode code, String description, String details) {
    }

    public static ErrorBody of(int status) {
        Known k = known(status);
        return ErrorBody.of(k.code(), k.description(), k.details());
    }

    private static Known known(int status) {
        return switch (status) {
            case 400 -> new Known(ErrorCode.MALFORMED_REQUEST, "the request is malformed (its URI, headers or encoding).",
                    "Send an encoded path without %2F, %5C or %00 in a segment, headers and URL under 8 KB, and a JSON body.");
            case 401 -> new Known(ErrorCode.NOT_AUTHENTICATED, "the session is missing, unknown or expired.",
                    "Log in with PUT /v1/accounts/login and send 'Authorization: OAuth <session uuid>'.");
            case 403 -> new Known(ErrorCode.FORBIDDEN, "the call is not allowed.", "Ask an administrator.");
            case 404 -> new Known(ErrorCode.NO_SUCH_API, "there is no API at this path.",
                    "Check the path against the API reference at /v3/api-docs.");
            case 405 -> new Known(ErrorCode.METHOD_NOT_ALLOWED, "this HTTP method is not allowed on this path.",
                    "Use the method the API reference at /v3/api-docs gives for this path.");
            case 406 -> new Known(ErrorCode.NOT_ACCEPTABLE, "the API answers only in JSON.",
                    "Send Accept: application/json or */*.");
            case 413 -> new Known(ErrorCode.BODY_TOO_LARGE, "the request body is over " + RequestLimits.MAX_BODY_BYTES + " bytes.",
                    "API request bodies are small JSON objects; send only the parameters the call takes.");
            case 414, 431 -> new Known(ErrorCode.MALFORMED_REQUEST, "the request's URL or headers are too large.",
                    "Keep the URL and the headers under 8 KB.");
            case 415 -> new Known(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the request's content type is not supported.",
                    "Send the body as application/json.");
            case 503 -> new Known(ErrorCode.DATABASE_UNREACHABLE, "the server cannot serve this call now.", "Retry shortly.");
            default -> status >= 500
                    ? new Known(ErrorCode.INTERNAL, "the server failed unexpectedly.",
                            "Retry; if it persists, look at the server log around this time.")
                    : new Known(ErrorCode.MALFORMED_REQUEST, "the request was refused (HTTP " + status + ").",
                            "Check the call against the API reference at /v3/api-docs.");
        };
    }

    /** The status the body is sent with: its code's own, so code and status always agree. */
    public static int statusOf(int status) {
        return known(status).code().status().value();
    }

    public static ResponseEntity<ErrorBody> body(int status) {
        return ResponseEntity.status(statusOf(status)).contentType(MediaType.APPLICATION_JSON).body(of(status));
    }

    public static byte[] json(ErrorBody body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
