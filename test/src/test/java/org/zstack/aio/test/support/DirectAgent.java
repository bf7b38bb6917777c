package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Talks to an agent directly, bypassing the server, as an attacker on the network (no credentials) or as a
 * holder of its token would: HTTPS with the token's certificate pinned, the token's secret sent or not.
 */
public final class DirectAgent {

    public record Answer(int status, String raw) {
        public JsonNode json() {
            try {
                return Http.JSON.readTree(raw);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + raw, e);
            }
        }
    }

    private final URI base;
    private final HttpClient http;
    private final String authorization;

    public DirectAgent(int port, String token, boolean sendCredentials) {
        EnrollmentToken t = EnrollmentToken.parse(token);
        this.base = URI.create("https://127.0.0.1:" + port);
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(PinnedTls.clientContext(t.certSha256())).build();
        this.authorization = sendCredentials ? AgentAuth.header(t.secret()) : null;
    }

    public Answer post(String path, Object command) {
        try {
            return postRaw(path, command == null ? "" : Http.JSON.writeValueAsString(command));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    public Answer postRaw(String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) b.header(AgentAuth.HEADER, authorization);
        try {
            HttpResponse<String> rsp = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(rsp.statusCode(), rsp.body());
        } catch (IOException e) {
            throw new AssertionError("agent unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
