package org.zstack.aio.server.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Map;

/**
 * What every request and answer gets before any handler runs: a bounded body (login is unauthenticated, so an
 * unbounded one is free memory for anyone), no TRACE, and the browser security headers; API answers are never cached
 * (a login answer holds a session).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestLimits extends OncePerRequestFilter {

    /** The largest request body read; the largest real one (a VM with 24 volume uuids) is under 2 KiB. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                              + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                              + "frame-ancestors 'none'";

    /** Thrown while reading a body past the limit; the JSON reader's failure is then answered 413. */
    public static final class BodyTooLargeException extends IOException {
        BodyTooLargeException() {
            super("request body over " + MAX_BODY_BYTES + " bytes");
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        securityHeaders(request, response);
        if ("TRACE".equals(request.getMethod()) || "TRACK".equals(request.getMethod())) {
            send(response, 405);
            return;
        }
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            send(response, 413);
            return;
        }
        chain.doFilter(new Bounded(request), response);
    }

    /** Sent on every answer, the container's own error answers included. */
    static final Map<String, String> SECURITY_HEADERS = Map.of("Content-Security-Policy", CSP,
            "X-Content-Type-Options", "nosniff", "X-Frame-Options", "DENY", "Referrer-Policy", "no-referrer");

    static void securityHeaders(HttpServletRequest request, HttpServletResponse response) {
        SECURITY_HEADERS.forEach(response::setHeader);
        String uri = request.getRequestURI();
        if (uri != null && (uri.startsWith("/v1/") || uri.startsWith("/v3/"))) {
            response.setHeader("Cache-Control", "no-store");
        }
    }

    private static void send(HttpServletResponse response, int status) throws IOException {
        if (status == 405) response.setHeader("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS");
        response.setStatus(ErrorStatuses.statusOf(status));
        response.setContentType("application/json");
        byte[] b = ErrorStatuses.json(ErrorStatuses.of(status));
        response.setContentLength(b.length);
        response.getOutputStream().write(b);
    }

    /** Counts what the handler reads and fails past the limit (a chunked body has no Content-Length to check). */
    private static final class Bounded extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        Bounded(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) stream = new Counting(super.getInputStream());
            return stream;
        }
    }

    private static final class Counting extends ServletInputStream {
        private final ServletInputStream in;
        private long read;

        Counting(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) count(1);
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) count(n);
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > MAX_BODY_BYTES) throw new BodyTooLargeException();
        }

        @Override
        public boolean isFinished() { return in.isFinished(); }

        @Override
        public boolean isReady() { return in.isReady(); }

        @Override
        public void setReadListener(ReadListener listener) { in.setReadListener(listener); }
    }
}
