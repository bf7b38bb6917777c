package org.zstack.sdk;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A JDK HTTP server on a free port that records each request and answers with queued answers (default 200 {}). */
final class FakeServer implements AutoCloseable {

    record Recorded(String method, String pathAndQuery, String authorization, String contentType, String body) {
    }

    private record Answer(int status, String contentType, String body, long delayMillis) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final Deque<Answer> answers = new ArrayDeque<>();

    FakeServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    FakeServer answer(int status, String json) {
        return answer(status, "application/json", json, 0);
    }

    synchronized FakeServer answer(int status, String contentType, String body, long delayMillis) {
        answers.add(new Answer(status, contentType, body, delayMillis));
        return this;
    }

    List<Recorded> requests() {
        return requests;
    }

    Recorded only() {
        if (requests.size() != 1) throw new AssertionError("expected one request, got " + requests);
        return requests.get(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Recorded(ex.getRequestMethod(), ex.getRequestURI().getRawPath()
                                  + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery()),
                ex.getRequestHeaders().getFirst("Authorization"), ex.getRequestHeaders().getFirst("Content-Type"), body));
        Answer a;
        synchronized (this) {
            a = answers.isEmpty() ? new Answer(200, "application/json", "{}", 0) : answers.poll();
        }
        if (a.delayMillis() > 0) {
            try {
                Thread.sleep(a.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", a.contentType());
        ex.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
