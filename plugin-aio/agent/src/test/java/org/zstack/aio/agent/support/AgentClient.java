package org.zstack.aio.agent.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.api.trust.EnrollmentToken;
import org.zstack.aio.agent.api.trust.PinnedTls;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A client for the agent, the way the server talks to it: JSON over POST on HTTPS, the agent's certificate
 * pinned and its secret presented, both from its enrollment token (or no credentials, to test refusals).
 */
public final class AgentClient {

    public record Answer(int status, String body) {
        public <T> T as(Class<T> type) {
            try {
                return JSON.readValue(body, type);
            } catch (IOException e) {
                throw new AssertionError("answer is not a " + type.getSimpleName() + ": " + body, e);
            }
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("answer is not JSON: " + body, e);
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http;
    private final URI base;
    private final String authorization;

    /** Enrolled with the agent's own token. */
    public AgentClient(KvmAgent agent) {
        this(agent.baseUri(), agent.enrollmentToken());
    }

    /** Pins the token's certificate; sends its secret unless {@code sendCredentials} is false. */
    public AgentClient(URI base, String token, boolean sendCredentials) {
        EnrollmentToken t = EnrollmentToken.parse(token);
        this.base = base;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(PinnedTls.clientContext(t.certSha256())).build();
        this.authorization = sendCredentials ? AgentAuth.header(t.secret()) : null;
    }

    public AgentClient(URI base, String token) {
        this(base, token, true);
    }

    /** The same agent, no Authorization header. */
    public AgentClient withoutCredentials(String token) {
        return new AgentClient(base, token, false);
    }

    public Answer post(String path, Object command) {
        try {
            return postRaw(path, JSON.writeValueAsString(command));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    public Answer postRaw(String path, String body) {
        return send(auth(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/json"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Answer get(String path) {
        return send(auth(HttpRequest.newBuilder(base.resolve(path))).GET().build());
    }

    private HttpRequest.Builder auth(HttpRequest.Builder b) {
        return authorization == null ? b : b.header(AgentAuth.HEADER, authorization);
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> rsp = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(rsp.statusCode(), rsp.body());
        } catch (IOException e) {
            throw new AssertionError("agent unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
