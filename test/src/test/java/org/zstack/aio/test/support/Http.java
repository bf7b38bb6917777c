package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Raw HTTP against the running server, for what an SDK cannot send (malformed JSON, wrong methods, no session). */
public final class Http {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;

    public Http(String base) {
        this.base = base;
    }

    public record Response(int status, JsonNode body, String raw) {
        public String errorCode() {
            return body == null ? null : body.path("error").path("code").asText(null);
        }
    }

    public Response call(String method, String path, String session, String body) {
        return call(method, path, session, body, java.util.Map.of());
    }

    /** The same with extra headers (e.g. ZStack's X-Job-UUID). */
    public Response call(String method, String path, String session, String body, java.util.Map<String, String> headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(180));
            headers.forEach(b::header);
            if (session != null) b.header("Authorization", "OAuth " + session);
            if (body != null) b.header("Content-Type", "application/json");
            b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            try {
                json = r.body().isEmpty() ? null : JSON.readTree(r.body());
            } catch (Exception notJson) {
                // left null: the assertion on the body then says what came back
            }
            return new Response(r.statusCode(), json, r.body());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        }
    }

    /**
     * A PUT whose answer is kept as text, not parsed ({@link Response#body()} is null): for load scripts, where the
     * client shares the machine with the servers and parsing every answer would count the client's work as theirs.
     */
    public Response putUnparsed(String path, String session, String body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(180))
                    .header("Authorization", "OAuth " + session).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), null, r.body());
        } catch (Exception e) {
            throw new IllegalStateException("PUT " + path + " failed: " + e, e);
        }
    }

    public Response get(String path, String session) { return call("GET", path, session, null); }

    public Response put(String path, String session, String body) { return call("PUT", path, session, body); }

    public Response post(String path, String session, String body) { return call("POST", path, session, body); }

    public Response delete(String path, String session) { return call("DELETE", path, session, null); }
}
