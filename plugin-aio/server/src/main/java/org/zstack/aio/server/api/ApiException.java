package org.zstack.aio.server.api;

/**
 * A refused call: becomes {@code {"error":{"code","description","details"}}} with the code's HTTP status.
 * description says what is wrong in one sentence; details says what to do.
 */
public class ApiException extends RuntimeException {

    private final ErrorCode code;
    private final String details;
    /** Seconds a throttled caller should wait (429's Retry-After), or 0. */
    private long retryAfterSeconds;

    public ApiException(ErrorCode code, String description, String details) {
        super(description);
        this.code = code;
        this.details = details;
    }

    public ErrorCode code() { return code; }

    public String description() { return getMessage(); }

    public String details() { return details; }

    public long retryAfterSeconds() { return retryAfterSeconds; }

    public static ApiException tooManyLoginFailures(String description, long retryAfterSeconds) {
        ApiException e = new ApiException(ErrorCode.TOO_MANY_LOGIN_FAILURES, description,
                "Wait " + retryAfterSeconds + " seconds (Retry-After) and log in with the right password.");
        e.retryAfterSeconds = retryAfterSeconds;
        return e;
    }

    public static ApiException badRequest(String description, String details) {
        return new ApiException(ErrorCode.INVALID_ARGUMENT, description, details);
    }

    public static ApiException notFound(String what, String uuid) {
        return new ApiException(ErrorCode.NOT_FOUND, "no " + what + " with uuid " + uuid + ".",
                "Check the uuid; list them with GET /v1/" + plural(what) + ".");
    }

    public static ApiException forbidden(String description) {
        return new ApiException(ErrorCode.FORBIDDEN, description,
                "Ask an administrator, or log in with an account that owns the resource.");
    }

    public static ApiException conflict(String description, String details) {
        return new ApiException(ErrorCode.CONFLICT, description, details);
    }

    private static String plural(String what) {
        return switch (what) {
            case "volume" -> "volumes";
            case "VM" -> "vm-instances";
            case "host" -> "hosts";
            case "primary storage" -> "primary-storage";
            default -> what;
        };
    }
}
