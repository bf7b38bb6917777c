package org.zstack.aio.server.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet container's error page (an exception outside a controller, a sendError): the contract's body in place of
 * Spring Boot's default {timestamp,status,error,path}.
 */
@RestController
@Hidden
public class ErrorPageController implements ErrorController {

    @RequestMapping("/error")
    public ResponseEntity<ErrorBody> error(HttpServletRequest request) {
        // only the container's forward of a failure is an error page; /error asked for by a client is no API (it was a
        // 500 when no failure was there to report)
        if (request.getDispatcherType() != DispatcherType.ERROR) return ErrorStatuses.body(404);
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        for (Throwable t = failure instanceof Throwable th ? th : null; t != null; t = t.getCause()) {
            if (t instanceof RequestLimits.BodyTooLargeException) return ErrorStatuses.body(413);
        }
        return ErrorStatuses.body(status instanceof Integer s ? s : 500);
    }
}
