package org.zstack.aio.server.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.api.trust.PinnedTls;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.metrics.IoModeMetrics;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls a host's KVM agent: POST JSON to https://ip:port/path, the agent's certificate pinned and the server's
 * credential for it presented ({@link AgentEndpoints}, from the host's enrollment). The one place that speaks
 * to agents, so transport and trust change here only.
 * <p>Failures say what is known: an agent that could not be reached or whose identity did not match was sent
 * nothing (so nothing changed); an agent that took the command and then did not answer in time may still
 * carry it out, and the answer says so.
 * <p>An agent that refuses the command as given is a 400, one outside its confinement a 403, a busy or full one
 * a 409, and one that fails or does not speak the agent protocol a 503, each carrying the agent's own sentence.
 */
@Component
public class AgentClient {

    private static final Logger LOG = LoggerFactory.getLogger(AgentClient.class);
    private final ObjectMapper json;
    private final Duration timeout;
    private final AgentEndpoints endpoints;
    private final IoModeMetrics metrics;
    /** One client per pinned certificate: each has its own TLS context and keeps its connections alive. */
    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    public AgentClient(ObjectMapper json, @Value("${aio.agent.timeout:PT120S}") Duration timeout, AgentEndpoints endpoints,
                       IoModeMetrics metrics) {
        this.metrics = metrics;
        this.json = json;
        this.timeout = timeout;
        this.endpoints = endpoints;
    }

    /** How long a command may take before the caller stops waiting. */
    public Duration timeout() {
        return timeout;
    }

    /** Calls the agent enrolled at ip:port. */
    public <T> T call(String ip, int port, String path, Object cmd, Class<T> answer) {
        return call(ip, port, path, cmd, answer, timeout);
    }

    /**
     * The same with a shorter wait (the host tracker's ping and listing). When the agent refuses this node's
     * credentials (401, or a certificate that no longer matches) the command did not run; if another management
     * node re-enrolled the host meanwhile, the database has the new credentials: they are read once more and the
     * command is sent again with them. Otherwise the refusal stands.
     */
    public <T> T call(String ip, int port, String path, Object cmd, Class<T> answer, Duration timeout) {
        long t0 = System.nanoTime();
        boolean ok = false;
        try {
            T out = callEnrolled(ip, port, path, cmd, answer, timeout);
            ok = true;
            return out;
        } finally { // its latency goes to aio_agent_call_seconds{path,outcome}
            metrics.agentCall(path, Duration.ofNanos(System.nanoTime() - t0), ok);
        }
    }

    private <T> T callEnrolled(String ip, int port, String path, Object cmd, Class<T> answer, Duration timeout) {
        AgentEndpoint ep = endpoints.at(ip, port);
        try {
            return send(ep, path, cmd, answer, false, timeout);
        } catch (CredentialsRefused refused) {
            AgentEndpoint fresh = endpoints.reread(ip, port, ep);
            if (fresh == null) throw refused.answer;
            try {
                return send(fresh, path, cmd, answer, false, timeout);
            } catch (CredentialsRefused again) {
                throw again.answer;
            }
        }
    }

    /** Calls an agent with credentials from a token being enrolled: a mismatch is the token's fault (400). */
    public <T> T enroll(AgentEndpoint endpoint, String path, Object cmd, Class<T> answer) {
        return send(endpoint, path, cmd, answer, true, timeout);
    }

    /** The agent refused the credentials before running anything; carries the answer to give if that stands. */
    private static final class CredentialsRefused extends RuntimeException {
        final ApiException answer;

        CredentialsRefused(ApiException answer) {
            super(answer.getMessage(), null, false, false);
            this.answer = answer;
        }
    }

    private <T> T send(AgentEndpoint ep, String path, Object cmd, Class<T> answer, boolean enrolling, Duration timeout) {
        String where = ep.where();
        HttpResponse<byte[]> rsp;
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("https://" + where + path)).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .header(AgentAuth.HEADER, AgentAuth.header(ep.secret()))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(cmd))).build();
            rsp = client(ep).send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (SSLHandshakeException e) {
            ApiException mismatch = identityMismatch(ep, e, enrolling);
            throw enrolling ? mismatch : new CredentialsRefused(mismatch);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw unreachable(ep, e);
        } catch (HttpTimeoutException e) {
            throw new AgentOutcomeUnknownException("the KVM agent at " + where + " took the command "
                    + path + " but did not answer within " + timeout.toSeconds() + " s.",
                    "The agent may still complete it; check the resource on that host before retrying (a retry of a "
                            + "volume creation may then be refused as already existing).");
        } catch (IOException e) {
            if (e.getCause() instanceof ConnectException || e.getMessage() == null) {
                throw unreachable(ep, e);
            }
            LOG.warn("connection to the agent at {} broke during {}: {}", where, path, e.toString(), e);
            throw new AgentOutcomeUnknownException("the connection to the KVM agent at " + where
                    + " broke during " + path + ".",
                    "The agent may or may not have carried the command out; check that host before retrying.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentOutcomeUnknownException("the call to the KVM agent at " + where + " was interrupted.",
                    "The agent may still carry out " + path + "; check that host before retrying.");
        }
        if (rsp.statusCode() == 401) {
            if (enrolling) {
                throw ApiException.badRequest("the KVM agent at " + where + " refused the secret in this enrollment token.",
                        "The token is outdated (rotated) or from another agent: run 'bin/aio-agent enrollment' on that "
                                + "host and send its output as agentEnrollment.");
            }
            throw new CredentialsRefused(new ApiException(ErrorCode.AGENT_UNREACHABLE, "the KVM agent at " + where
                    + " refused this server's credentials (its secret was rotated); nothing was changed.",
                    "Reconnect the host with the agent's new token: PUT /v1/hosts/{uuid}/actions "
                            + "{\"reconnectHost\":{\"agentEnrollment\":\"<output of bin/aio-agent enrollment>\"}}."));
        }
        try {
            if (rsp.statusCode() / 100 == 2) return json.readValue(rsp.body(), answer);
            AgentError err = json.readValue(rsp.body(), AgentError.class);
            String details = err.details() == null ? "See the agent's log on that host." : err.details();
            if (rsp.statusCode() == 409) { // the host is busy or full: the caller may retry or change the command
                throw new ApiException(ErrorCode.CONFLICT, "the KVM agent at " + where + " refused: " + err.error(), details);
            }
            if (rsp.statusCode() == 400) { // the agent refused the command as given: what the caller sent must change
                throw ApiException.badRequest("the KVM agent at " + where + " refused the command: " + err.error() + ".",
                        err.details() == null ? "Check the request's parameters." : err.details() + ".");
            }
            if (rsp.statusCode() == 403) { // outside what the platform gave that agent: the request's data is wrong
                throw ApiException.badRequest("the KVM agent at " + where + " refused: " + err.error() + ".", details);
            }
            throw new ApiException(ErrorCode.AGENT_FAILED, "the KVM agent at " + where + " failed: " + err.error(), details);
        } catch (IOException e) {
            throw new ApiException(ErrorCode.AGENT_FAILED, "the KVM agent at " + where + " answered " + rsp.statusCode()
                    + " with a body that is not the agent protocol.", "Check that port " + ep.port() + " runs aio-agent.");
        }
    }

    private HttpClient client(AgentEndpoint ep) {
        return clients.computeIfAbsent(ep.certSha256Hex(), k -> HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(3)).version(HttpClient.Version.HTTP_1_1)
                .sslContext(PinnedTls.clientContext(ep.certSha256())).build());
    }

    private static ApiException unreachable(AgentEndpoint ep, Exception e) {
        return new ApiException(ErrorCode.AGENT_UNREACHABLE, "the KVM agent at " + ep.where() + " cannot be reached"
                + (e instanceof HttpConnectTimeoutException ? " (no connection in time)." : " (connection refused)."),
                "Start it with bin/aio-agent on that host (port " + ep.port() + ") and retry; nothing was sent to it, "
                        + "so nothing was changed.");
    }

    private static ApiException identityMismatch(AgentEndpoint ep, SSLHandshakeException e, boolean enrolling) {
        boolean certificate = causedBy(e, CertificateException.class);
        String what = certificate ? "the agent at " + ep.where() + " is not the one this "
                + (enrolling ? "enrollment token" : "host was enrolled with") + " belongs to (its certificate does not match "
                + "sha256 " + ep.certSha256Hex() + ")" : "no TLS session could be set up with the agent at " + ep.where()
                + " (" + e.getMessage() + ")";
        String todo = enrolling ? "Run 'bin/aio-agent enrollment' on the host at " + ep.where() + " and send that token."
                : "If the agent was reinstalled, reconnect the host with its new token; otherwise something else "
                + "answers on that port. Nothing was sent to it.";
        return enrolling ? ApiException.badRequest(what + ".", todo)
                : new ApiException(ErrorCode.AGENT_UNREACHABLE, what + "; nothing was changed.", todo);
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) return true;
        }
        return false;
    }
}
