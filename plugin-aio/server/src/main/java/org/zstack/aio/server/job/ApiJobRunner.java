package org.zstack.aio.server.job;

import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.api.ErrorBody;
import org.zstack.aio.server.api.ErrorCode;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an accepted job: the same call, without {@code X-Job-UUID}, sent to this server itself over the connector
 * that received it (loopback), so a job goes through exactly what a synchronous call goes through (session,
 * validation, the error body) and stores exactly the answer a synchronous client would have got.
 */
@Component
public class ApiJobRunner {

    private static final Logger log = LoggerFactory.getLogger(ApiJobRunner.class);
    /** headers the JDK client sets itself, and the job header (the replay must run synchronously) */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "connection", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "http2-settings",
            ApiJobFilter.HEADER.toLowerCase());
    private static final Duration LONGEST_CALL = Duration.ofHours(3);
    /** jobs run at once on this node; more wait their turn (still Running to their polls) */
    private static final int MAX_RUNNING = 64;

    enum Accepted { NEW, EXISTING, OTHER_OWNER }

    private final ApiJobRepository jobs;
    private final ApiJobLeases leases;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();
    private final ExecutorService pool;

    public ApiJobRunner(ApiJobRepository jobs, ApiJobLeases leases, ObjectMapper json) {
        this.jobs = jobs;
        this.leases = leases;
        this.json = json;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(MAX_RUNNING, r -> {
            Thread t = new Thread(r, "api-job-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    Accepted submit(String jobUuid, String accountUuid, HttpServletRequest request) throws IOException {
        ApiJobVO existing = jobs.findById(jobUuid).orElse(null);
        if (existing != null) return sameOwner(existing, accountUuid);
        HttpRequest replay = replay(request);
        try {
            jobs.saveAndFlush(new ApiJobVO(jobUuid, accountUuid, request.getMethod() + " " + request.getRequestURI()));
        } catch (DataIntegrityViolationException e) {
            // the same job uuid accepted concurrently: one runs it
            return jobs.findById(jobUuid).map(j -> sameOwner(j, accountUuid)).orElseThrow(() -> e);
        }
        leases.started(jobUuid);
        try {
            pool.execute(() -> {
                try {
                    run(jobUuid, replay);
                } finally {
                    leases.finished(jobUuid);
                }
            });
        } catch (RuntimeException e) { // the pool is closing with the node: the job's lease lapses, another node fails it
            leases.finished(jobUuid);
            throw e;
        }
        return Accepted.NEW;
    }

    private static Accepted sameOwner(ApiJobVO job, String accountUuid) {
        return Objects.equals(job.getAccountUuid(), accountUuid) ? Accepted.EXISTING : Accepted.OTHER_OWNER;
    }

    private static HttpRequest replay(HttpServletRequest request) throws IOException {
        byte[] body = request.getInputStream().readAllBytes();
        String addr = request.getLocalAddr();
        String host = addr.contains(":") ? "[" + addr + "]" : addr;
        String query = request.getQueryString() == null ? "" : "?" + request.getQueryString();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + host + ":" + request.getLocalPort()
                                                                  + request.getRequestURI() + query))
                .timeout(LONGEST_CALL)
                .method(request.getMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String name : Collections.list(request.getHeaderNames())) {
            if (NOT_FORWARDED.contains(name.toLowerCase())) continue;
            for (String v : Collections.list(request.getHeaders(name))) b.header(name, v);
        }
        return b.build();
    }

    private void run(String jobUuid, HttpRequest replay) {
        int status;
        String body;
        try {
            HttpResponse<String> rsp = http.send(replay, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            status = rsp.statusCode();
            body = rsp.body();
        } catch (IOException | RuntimeException e) {
            log.warn("job {}: the call could not be run: {}", jobUuid, e.toString());
            status = ErrorCode.INTERNAL.status().value();
            body = errorJson(ErrorBody.of(ErrorCode.INTERNAL, "the job's call could not be run: " + e.getClass().getSimpleName() + ".",
                    "Retry with a new X-Job-UUID; if it persists, look at the server log around this time."));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = ErrorCode.INTERNAL.status().value();
            body = errorJson(ErrorBody.of(ErrorCode.INTERNAL, "the management node stopped while the job ran.",
                    "Check the resource's state, then retry with a new X-Job-UUID."));
        }
        final int s = status;
        final String b = body;
        try {
            jobs.findById(jobUuid).ifPresent(j -> {
                j.finish(s, b);
                jobs.save(j);
            });
        } catch (RuntimeException e) {
            log.error("job {}: its answer (HTTP {}) could not be stored", jobUuid, s, e);
        }
    }

    private String errorJson(ErrorBody e) {
        try {
            return json.writeValueAsString(e);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
