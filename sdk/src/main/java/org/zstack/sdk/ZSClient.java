package org.zstack.sdk;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The connection to one management server. Immutable and thread-safe: share one per server.
 *
 * <pre>{@code
 * ZSClient client = new ZSClient("http://127.0.0.1:8080");
 * LogInByAccountAction login = new LogInByAccountAction();
 * login.accountName = "admin"; login.password = secret;
 * ZSClient admin = client.withSession(login.call(client).inventory.uuid);
 * }</pre>
 */
public final class ZSClient {

    private static final int MAX_ERROR_TEXT = 500;

    private final ZSConfig config;
    private final String sessionId;
    private final HttpClient http;
    private final ObjectMapper mapper;

    /** A client for {@code baseUrl}, e.g. {@code http://127.0.0.1:8080}. */
    public ZSClient(String baseUrl) {
        this(ZSConfig.of(baseUrl));
    }

    public ZSClient(ZSConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.sessionId = null;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.getConnectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    private ZSClient(ZSClient base, String sessionId) {
        this.config = base.config;
        this.http = base.http;
        this.mapper = base.mapper;
        this.sessionId = sessionId;
    }

    /**
     * A client sharing this one's connection that sends {@code sessionId} with every action whose own
     * {@link AbstractAction#sessionId} is null. This client is unchanged.
     */
    public ZSClient withSession(String sessionId) {
        return new ZSClient(this, sessionId);
    }

    /** The default session of this client, or null. */
    public String getSessionId() {
        return sessionId;
    }

    public ZSConfig getConfig() {
        return config;
    }

    /**
     * Sends {@code action} and waits for the answer.
     *
     * @throws IllegalArgumentException a required parameter (or the session) is missing; nothing was sent
     * @throws ApiErrorException        the server answered with an error
     * @throws ZSClientException        no API answer (unreachable, timed out, interrupted, not JSON)
     */
    public <R> R call(AbstractAction<R> action) {
        Answer a = send(action);
        try {
            return action.readResult(a.json(), mapper);
        } catch (IOException e) {
            throw new ZSClientException(a.what() + " answered with a body that is not the expected JSON: "
                                        + abbreviate(a.json().toString()), e);
        }
    }

    /**
     * Sends {@code action} and answers the JSON as the server gave it (every field, also those the typed result
     * does not carry): what a command-line client prints. Same exceptions as {@link #call(AbstractAction)}.
     */
    public JsonNode callForJson(AbstractAction<?> action) {
        return send(action).json();
    }

    private record Answer(String what, JsonNode json) {
    }

    private Answer send(AbstractAction<?> action) {
        Objects.requireNonNull(action, "action");
        AbstractAction.Request req = action.toRequest(mapper);
        String session = action.sessionId != null ? action.sessionId : sessionId;
        if (req.needSession() && (session == null || session.isEmpty())) {
            throw new IllegalArgumentException(action.getClass().getSimpleName()
                                               + ": parameter 'sessionId' is required (log in with LogInByAccountAction)");
        }
        URI uri = URI.create(config.getBaseUrl() + req.pathAndQuery());
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(config.getReadTimeout())
                .header("Accept", "application/json");
        if (req.needSession()) b.header("Authorization", "OAuth " + session);
        if (req.body() != null) {
            b.header("Content-Type", "application/json");
            b.method(req.method(), HttpRequest.BodyPublishers.ofString(req.body(), StandardCharsets.UTF_8));
        } else {
            b.method(req.method(), HttpRequest.BodyPublishers.noBody());
        }
        String what = req.method() + " " + uri;
        HttpResponse<String> rsp;
        try {
            rsp = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new ZSClientException(what + " timed out: " + e.getMessage(), e);
        } catch (ConnectException e) {
            throw new ZSClientException("cannot connect to " + config.getBaseUrl() + " (" + what + "): "
                                        + (e.getMessage() == null ? "connection refused" : e.getMessage()), e);
        } catch (IOException e) {
            throw new ZSClientException(what + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZSClientException(what + " was interrupted", e);
        }
        int status = rsp.statusCode();
        String text = rsp.body() == null ? "" : rsp.body();
        if (status < 200 || status > 299) throw error(status, text);
        try {
            return new Answer(what, text.isBlank() ? mapper.createObjectNode() : mapper.readTree(text));
        } catch (IOException e) {
            throw new ZSClientException(what + " answered HTTP " + status + " with a body that is not the expected JSON: "
                                        + abbreviate(text), e);
        }
    }

    private ApiErrorException error(int status, String text) {
        try {
            JsonNode err = text.isBlank() ? null : mapper.readTree(text).get("error");
            if (err != null && err.isObject()) {
                return new ApiErrorException(status, textOf(err, "code"), textOf(err, "description"), textOf(err, "details"));
            }
        } catch (IOException ignored) {
            // not JSON: a proxy or a server outside the contract answered
        }
        return new ApiErrorException(status, "HTTP." + status, "the server answered HTTP " + status
                                                                 + " without an API error body.",
                text.isBlank() ? null : abbreviate(text));
    }

    private static String textOf(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.isTextual() ? v.textValue() : v.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= MAX_ERROR_TEXT ? s : s.substring(0, MAX_ERROR_TEXT) + "...";
    }
}
