package org.zstack.aio.server.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.zstack.aio.server.db.DatabaseFailure;

/** Every failure leaves as the contract's error body with the right status; never a stack trace. */
@RestControllerAdvice
public class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ErrorBody> api(ApiException e) {
        return body(e.code(), e.description(), e.details());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorBody> unreadable(HttpMessageNotReadableException e) {
        return body(ErrorCode.MALFORMED_REQUEST, "the request body is missing or is not valid JSON.",
                "Send a JSON body as the API reference shows, with Content-Type: application/json.");
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorBody> method(HttpRequestMethodNotSupportedException e) {
        return body(ErrorCode.METHOD_NOT_ALLOWED, "HTTP method " + e.getMethod() + " is not allowed on this path.",
                "Use " + String.join(" or ", e.getSupportedMethods() == null ? new String[0] : e.getSupportedMethods())
                + ".");
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorBody> mediaType(HttpMediaTypeNotSupportedException e) {
        return body(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "content type " + e.getContentType() + " is not supported.",
                "Send the body as application/json.");
    }

    @ExceptionHandler({MethodArgumentTypeMismatchException.class, MissingServletRequestParameterException.class})
    ResponseEntity<ErrorBody> parameter(Exception e) {
        return body(ErrorCode.INVALID_ARGUMENT, "a query parameter is missing or malformed: " + e.getMessage(),
                "Check the API reference for this call's parameters.");
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ErrorBody> noSuchApi(NoResourceFoundException e) {
        return body(ErrorCode.NO_SUCH_API, "there is no API at /" + e.getResourcePath() + ".",
                "Check the path against the API reference at /v3/api-docs.");
    }

    @ExceptionHandler({DataAccessResourceFailureException.class, CannotCreateTransactionException.class,
            ConcurrencyFailureException.class})
    ResponseEntity<ErrorBody> database(Exception e) {
        return switch (DatabaseFailure.of(e)) {
            case CONFLICT -> {
                log.warn("database conflict after retries: {}", e.getMessage());
                yield body(ErrorCode.CONFLICT, "the change conflicted with concurrent changes to the same data, "
                        + "also after retrying.", "Send the request again; it changed nothing.");
            }
            default -> {
                log.warn("database unreachable: {}", e.getMessage());
                yield body(ErrorCode.DATABASE_UNREACHABLE, "the database cannot be reached.",
                        "Check that the database server runs and AIO_DB_URL is right, then retry.");
            }
        };
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorBody> internal(Exception e) {
        // a driver or Hibernate exception Spring did not translate still says what it is in its cause chain
        if (DatabaseFailure.of(e).isDatabaseFailure()) return database(e);
        log.error("unexpected error", e);
        return body(ErrorCode.INTERNAL, "the server failed unexpectedly: " + e.getClass().getSimpleName() + ".",
                "Retry; if it persists, look at the server log around this time.");
    }

    public static ResponseEntity<ErrorBody> body(ErrorCode code, String description, String details) {
        return ResponseEntity.status(code.status()).body(ErrorBody.of(code, description, details));
    }
}
