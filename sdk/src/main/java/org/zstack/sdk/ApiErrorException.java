package org.zstack.sdk;

/**
 * The server refused the call: a non-2xx answer with {@code {"error":{"code","description","details"}}}.
 * A refused call changed nothing on the server.
 */
public class ApiErrorException extends RuntimeException {

    private final int httpStatus;
    private final String code;
    private final String description;
    private final String details;

    public ApiErrorException(int httpStatus, String code, String description, String details) {
        super("HTTP " + httpStatus + " " + code + ": " + description + (details == null ? "" : " " + details));
        this.httpStatus = httpStatus;
        this.code = code;
        this.description = description;
        this.details = details;
    }

    /** 400 bad input, 401 no or bad session, 403 not allowed, 404 no such resource, 409 conflict, 503 unreachable. */
    public int getHttpStatus() {
        return httpStatus;
    }

    /** The server's error code, e.g. {@code AIO.1001}; {@code HTTP.<status>} when the answer had no error body. */
    public String getCode() {
        return code;
    }

    /** One sentence saying what was wrong. */
    public String getDescription() {
        return description;
    }

    /** What to do about it. */
    public String getDetails() {
        return details;
    }
}
