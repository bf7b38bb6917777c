package org.zstack.aio.server.api;

/** {@code {"error":{"code","description","details"}}}, the body of every error answer. */
public record ErrorBody(Error error) {

    public record Error(String code, String description, String details) {
    }

    public static ErrorBody of(ErrorCode code, String description, String details) {
        return new ErrorBody(new Error(code.code(), description, details));
    }
}
