package org.zstack.aio.server.api;

import org.springframework.http.HttpStatus;

/** The API's error codes: each with its HTTP status, so a code always means the same status. */
public enum ErrorCode {
    INVALID_ARGUMENT("AIO.1000", HttpStatus.BAD_REQUEST),
    MALFORMED_REQUEST("AIO.1001", HttpStatus.BAD_REQUEST),
    INVALID_CONFIG_VALUE("AIO.1003", HttpStatus.BAD_REQUEST),
    CONFIG_NOT_BINDABLE("AIO.1004", HttpStatus.BAD_REQUEST),
    IO_MODE_RULED_OUT("AIO.1005", HttpStatus.BAD_REQUEST),
    MALFORMED_UUID("AIO.1006", HttpStatus.BAD_REQUEST),
    BODY_TOO_LARGE("AIO.1007", HttpStatus.PAYLOAD_TOO_LARGE),
    NOT_AUTHENTICATED("AIO.1100", HttpStatus.UNAUTHORIZED),
    TOO_MANY_LOGIN_FAILURES("AIO.1102", HttpStatus.TOO_MANY_REQUESTS),
    NOT_ACCEPTABLE("AIO.1204", HttpStatus.NOT_ACCEPTABLE),
    FORBIDDEN("AIO.1101", HttpStatus.FORBIDDEN),
    NOT_FOUND("AIO.1200", HttpStatus.NOT_FOUND),
    UNKNOWN_CONFIG("AIO.1002", HttpStatus.NOT_FOUND),
    NO_SUCH_API("AIO.1201", HttpStatus.NOT_FOUND),
    METHOD_NOT_ALLOWED("AIO.1202", HttpStatus.METHOD_NOT_ALLOWED),
    UNSUPPORTED_MEDIA_TYPE("AIO.1203", HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    CONFLICT("AIO.1300", HttpStatus.CONFLICT),
    IO_MODE_REFUSED("AIO.1301", HttpStatus.CONFLICT),
    QUOTA_EXCEEDED("AIO.1302", HttpStatus.CONFLICT),
    AGENT_UNREACHABLE("AIO.1500", HttpStatus.SERVICE_UNAVAILABLE),
    DATABASE_UNREACHABLE("AIO.1501", HttpStatus.SERVICE_UNAVAILABLE),
    AGENT_FAILED("AIO.1502", HttpStatus.SERVICE_UNAVAILABLE),
    /** the management node running an API job stopped before the job finished */
    NODE_LOST("AIO.1503", HttpStatus.SERVICE_UNAVAILABLE),
    INTERNAL("AIO.1999", HttpStatus.INTERNAL_SERVER_ERROR);

    private final String code;
    private final HttpStatus status;

    ErrorCode(String code, HttpStatus status) {
        this.code = code;
        this.status = status;
    }

    public String code() { return code; }

    public HttpStatus status() { return status; }
}
