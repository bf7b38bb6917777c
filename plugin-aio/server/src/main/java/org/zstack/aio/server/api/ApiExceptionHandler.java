package org.zstack.aio.server.api;

import com.fasterxml.jackson.core.JsonParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.zstack.aio.server.db.DatabaseFailure;

/**
 * Every failure leaves as the contract's error body with the right status, always as application/json whatever the
 * request's Accept header says; never a stack trace or a Java class name.
 */
@RestControllerAdvice
public class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ErrorBody> api(ApiException e) {
        ResponseEntity<ErrorBody> r = body(e.code(), e.description(), e.details());
        if (e.retryAfterSeconds() > 0) {
            return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders())
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds())).body(r.getBody());
        }
        return r;
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorBody> unreadable(HttpMessageNotReadableException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RequestLimits.BodyTooLargeException) return bodyTooLarge();
            if (t instanceof JsonParseException p && p.getOriginalMessage() != null
                && p.getOriginalMessage().startsWith("Duplicate field")) {
                return body(ErrorCode.MALFORMED_REQUEST, "the request body names a field twice.",
                        "Send each field once; a repeated key is refused rather than guessed at.");
            }
        }
        return body(ErrorCode.MALFORMED_REQUEST, "the request body is missing or is not valid JSON.",
                "Send a JSON body as the API reference shows, with Content-Type: application/json.");
    }

    static ResponseEntity<ErrorBody> bodyTooLarge() {
        return body(ErrorCode.BODY_TOO_LARGE, "the request body is over " + RequestLimits.MAX_BODY_BYTES + " bytes.",
                "API request bodies are small JSON objects; send only the parameters the call takes.");
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorBody> method(HttpRequestMethodNotSupportedException e) {
        return body(ErrorCode.METHOD_NOT_ALLOWED, "HTTP method " + Uuids.abbreviate(e.getMethod()) + " is not allowed on this path.",
                "Use " + String.join(" or ", e.getSupportedMethods() == null ? new String[0] : e.getSupportedMethods())
                + ".");
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorBody> mediaType(HttpMediaTypeNotSupportedException e) {
        return body(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the request's content type is not supported.",
                "Send the body as application/json.");
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ErrorBody> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return body(ErrorCode.NOT_ACCEPTABLE, "the API answers only in JSON.", "Send Accept: application/json or */*.");
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ErrorBody> parameterType(MethodArgumentTypeMismatchException e) {
        return body(ErrorCode.INVALID_ARGUMENT, "parameter '" + e.getName() + "' is malformed.",
                "Check the API reference for this call's parameters.");
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ErrorBody> parameterMissing(MissingServletRequestParameterException e) {
        return body(ErrorCode.INVALID_ARGUMENT, "query parameter '" + e.getParameterName() + "' is required.",
                "Check the API reference for this call's parameters.");
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ErrorBody> noSuchApi(NoResourceFoundException e) {
        return body(ErrorCode.NO_SUCH_API, "there is no API at /" + Uuids.abbreviate(e.getResourcePath()) + ".",
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
        if (e instanceof ErrorResponse framework) {
            // the rest of Spring MVC's own refusals (missing headers, bad multipart, ...): their status, our body
            return ErrorStatuses.body(framework.getStatusCode().value());
        }
        // a driver or Hibernate exception Spring did not translate still says what it is in its cause chain
        if (DatabaseFailure.of(e).isDatabaseFailure()) return database(e);
        log.error("unexpected error", e);
        return body(ErrorCode.INTERNAL, "the server failed unexpectedly.",
                "Retry; if it persists, look at the server log around this time.");
    }

    public static ResponseEntity<ErrorBody> body(ErrorCode code, String description, String details) {
        return ResponseEntity.status(code.status()).contentType(MediaType.APPLICATION_JSON)
                .body(ErrorBody.of(code, description, details));
    }
}
