package org.zstack.aio.server.api;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's own error answers (a %2F or %00 in a path segment, an oversized URL or header, a request it cannot parse)
 * in the contract's JSON instead of Tomcat's HTML page naming its version.
 */
public class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) return;
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) return;
        try {
            byte[] body = ErrorStatuses.json(ErrorStatuses.of(status));
            response.setStatus(ErrorStatuses.statusOf(status));
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            RequestLimits.SECURITY_HEADERS.forEach(response::setHeader);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the answer already started: nothing more to send
        }
    }
}
