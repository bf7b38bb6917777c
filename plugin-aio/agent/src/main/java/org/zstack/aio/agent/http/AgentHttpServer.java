package org.zstack.aio.agent.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.agent.api.trust.AgentAuth;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * POST-JSON routing on the JDK's HttpsServer. Kept tiny on purpose: the agent has a handful of endpoints, and a
 * web framework would make the in-process embedding in the server heavier than the agent itself.
 * <p>Every request is authenticated first, from its headers alone: without the enrolled server's credential
 * it is answered 401 before its body is read (the JDK drains at most a small amount of it before closing the
 * connection) and nothing runs.
 * <p>Every other answer, a 404 or 405 too, is sent only once the request's body has been read to its end. The
 * JDK's HttpsServer reads what is left of a body after the answer (when the exchange closes), and that read may
 * take in, from the socket, the client's next request on the same kept-alive connection as well: it stays in the
 * server's TLS buffer, where the JDK's dispatcher never looks (it asks only for decrypted bytes), so that request
 * is never answered and the client waits out its whole timeout (seen: a VM start answered 503 after 60 s in the
 * two-node soak, behind a simulated agent's /ping or /vm/watch answered before its body was read; docs/state.md).
 * <p>Long work (image creation) runs on its own bounded pool, so it never holds the request threads that VM
 * starts and stops need; when that pool and its queue are full the answer is 409 at once.
 * <p>Status codes: 200 answer, 400 malformed JSON or a bad command, 401 no or wrong credentials, 403 outside
 * what the platform gave this agent, 404 unknown path, 405 not POST, 409 busy, 500 libvirt/QEMU/qemu-img
 * failure. Every non-200 body is an {@link AgentError}.
 */
public final class AgentHttpServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AgentHttpServer.class.getName());
    /** The largest command body read (a VM start with 24 disks is a few KiB). */
    public static final int MAX_BODY_BYTES = 1 << 20;

    static {
        tuneJdkServer();
    }

    /**
     * Settings of the JDK's HTTP server, read once per JVM before its first server starts (each kept if the JVM was
     * started with another value):
     * <ul><li>TCP_NODELAY: without it a small answer waits for the client's delayed ACK, ~40 ms per agent call
     * (measured: 170 calls/s from 8 threads with or without TLS, thousands with it).</li>
     * <li>Idle connections kept 25 min, longer than the JDK HttpClient keeps one for reuse (20 min): with the
     * default 30 s the agent closed connections the server then reused for a VM start, whose POST met a reset and
     * could not be told apart from an agent that died mid-command (seen: 2 of ~1,000 starts in a 30 s two-node
     * soak answered 503). The JDK server still closes idle connections beyond 200.</li></ul>
     */
    public static void tuneJdkServer() {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        if (System.getProperty("sun.net.httpserver.idleInterval") == null) {
            System.setProperty("sun.net.httpserver.idleInterval", "1500");
        }
    }

    private record Route<C>(Class<C> type, boolean bodyOptional, boolean longWork, CommandHandler<C> handler) {
    }

    private final ObjectMapper json = new ObjectMapper()
            // A newer server may send fields this agent does not know yet; ignoring them keeps upgrades rolling.
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
    private final Map<String, Route<?>> routes = new LinkedHashMap<>();
    private final SSLContext tls;
    private final Predicate<String> authorized;
    private HttpsServer server;
    private ExecutorService executor;
    private ThreadPoolExecutor longWork;

    /**
     * @param tls        the agent's own key and certificate
     * @param authorized whether an Authorization header value carries the enrolled server's credential
     */
    public AgentHttpServer(SSLContext tls, Predicate<String> authorized) {
        this.tls = tls;
        this.authorized = authorized;
    }

    public <C> AgentHttpServer route(String path, Class<C> type, CommandHandler<C> handler) {
        routes.put(path, new Route<>(type, false, false, handler));
        return this;
    }

    /** A route whose body may be empty (ping): the handler then gets null. */
    public <C> AgentHttpServer routeWithOptionalBody(String path, Class<C> type, CommandHandler<C> handler) {
        routes.put(path, new Route<>(type, true, false, handler));
        return this;
    }

    /** A route that runs on the long-work pool (minutes of qemu-img), never on the request threads. */
    public <C> AgentHttpServer routeLongWork(String path, Class<C> type, CommandHandler<C> handler) {
        routes.put(path, new Route<>(type, false, true, handler));
        return this;
    }

    /**
     * @param threads     request threads (VM start/stop/attach, probes)
     * @param longThreads concurrent long commands; up to {@code longQueue} more wait, beyond that 409
     */
    public AgentHttpServer start(String bindAddress, int port, int threads, int longThreads, int longQueue)
            throws IOException {
        server = HttpsServer.create(new InetSocketAddress(bindAddress, port), 64);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        AtomicInteger n = new AtomicInteger();
        executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "aio-agent-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        AtomicInteger m = new AtomicInteger();
        longWork = new ThreadPoolExecutor(longThreads, longThreads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(longQueue), r -> {
            Thread t = new Thread(r, "aio-agent-long-" + m.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::dispatch);
        server.start();
        return this;
    }

    /** Reads and drops a bounded rest of an oversized body, so the sender gets the 413 rather than a reset. */
    private static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        long left = 8L * MAX_BODY_BYTES;
        int n;
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) left -= n;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        boolean handedOver = false;
        try {
            String path = exchange.getRequestURI().getPath();
            if (!authorized.test(exchange.getRequestHeaders().getFirst(AgentAuth.HEADER))) {
                exchange.getResponseHeaders().set("Connection", "close");
                exchange.getResponseHeaders().set("WWW-Authenticate", AgentAuth.SCHEME.strip());
                send(exchange, 401, new AgentError("this agent only serves the management server that enrolled it",
                        "add the host with the token from 'bin/aio-agent enrollment' on that host"));
                return;
            }
            // the whole command before any answer, even a refusal: see the class comment
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
                if (body.length > MAX_BODY_BYTES) drain(in);
            }
            Route<?> route = routes.get(path);
            if (route == null) {
                send(exchange, 404, new AgentError("no such agent path: " + path, "known paths: " + routes.keySet()));
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().add("Allow", "POST");
                send(exchange, 405, new AgentError(exchange.getRequestMethod() + " is not allowed on " + path,
                        "agent commands are POST with a JSON body"));
                return;
            }
            if (body.length > MAX_BODY_BYTES) {
                send(exchange, 413, new AgentError("the command for " + path + " is over " + MAX_BODY_BYTES + " bytes",
                        "agent commands are small JSON objects; this one is not from a management server"));
                return;
            }
            if (route.longWork()) {
                handedOver = runLong(exchange, path, route, body);
            } else {
                answer(exchange, path, route, body);
            }
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "agent request failed unexpectedly", e);
        } finally {
            if (!handedOver) {
                exchange.close();
            }
        }
    }

    /** @return whether the long-work pool took the exchange (it then answers and closes it) */
    private <C> boolean runLong(HttpExchange exchange, String path, Route<C> route, byte[] body) throws IOException {
        try {
            longWork.execute(() -> {
                try (exchange) {
                    answer(exchange, path, route, body);
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.WARNING, path + ": could not answer", e);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            send(exchange, 409, new AgentError("the agent is busy: " + longWork.getActiveCount() + " long commands run and "
                    + longWork.getQueue().size() + " wait", "retry " + path + " when some have finished"));
            return false;
        }
    }

    private <C> void answer(HttpExchange exchange, String path, Route<C> route, byte[] body) throws IOException {
        C command;
        try {
            command = body.length == 0 && route.bodyOptional() ? null : json.readValue(body, route.type());
            if (command == null && !route.bodyOptional()) {
                throw AgentException.badCommand("empty command for " + path,
                        "send a JSON " + route.type().getSimpleName() + " object");
            }
        } catch (JsonProcessingException e) {
            send(exchange, 400, new AgentError("malformed " + route.type().getSimpleName() + " for " + path,
                    e.getOriginalMessage()));
            return;
        } catch (AgentException e) {
            send(exchange, e.status(), new AgentError(e.getMessage(), e.details()));
            return;
        }
        try {
            send(exchange, 200, route.handler().handle(command));
        } catch (AgentException e) {
            if (e.status() >= 500) {
                LOG.log(Level.WARNING, path + " failed: " + e.getMessage() + " (" + e.details() + ")");
            }
            send(exchange, e.status(), new AgentError(e.getMessage(), e.details()));
        } catch (IllegalArgumentException e) {
            send(exchange, 400, new AgentError("bad " + route.type().getSimpleName() + " for " + path,
                    e.getMessage()));
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, path + " failed unexpectedly", e);
            send(exchange, 500, new AgentError(path + " failed unexpectedly", "see the agent log on this host"));
        }
    }

    private void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = json.writeValueAsBytes(body == null ? Map.of() : body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
        if (longWork != null) {
            longWork.shutdownNow();
        }
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
