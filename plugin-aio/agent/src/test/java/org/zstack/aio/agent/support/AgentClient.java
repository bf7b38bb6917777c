package org.zstack.aio.agent.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for the agent, the way the server talks to it: JSON over POST. */
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
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    public AgentClient(URI base) {
        this.base = base;
    }

    public Answer post(String path, Object command) {
        try {
            return postRaw(path, JSON.writeValueAsString(command));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    public Answer postRaw(String path, String body) {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Answer get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET().build());
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
