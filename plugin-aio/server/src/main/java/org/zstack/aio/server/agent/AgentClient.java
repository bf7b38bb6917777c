package org.zstack.aio.server.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Calls a host's KVM agent: POST JSON to http://ip:port/path. An agent that cannot be reached is a 503 with the
 * contract's error body; an agent that refuses the command as given is a 400, and one that fails or does not speak the
 * agent protocol is a 503, each carrying the agent's own sentence.
 */
@Component
public class AgentClient {

    private final HttpClient http;
    private final ObjectMapper json;
    private final Duration timeout;

    public AgentClient(ObjectMapper json, @Value("${aio.agent.timeout:PT120S}") Duration timeout) {
        this.json = json;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).version(HttpClient.Version.HTTP_1_1).build();
    }

    public <T> T call(String ip, int port, String path, Object cmd, Class<T> answer) {
        String where = (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + port;
        HttpResponse<byte[]> rsp;
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + where + path)).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(cmd))).build();
            rsp = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new ApiException(ErrorCode.AGENT_UNREACHABLE, "the KVM agent at " + where + " cannot be reached"
                    + (e instanceof java.net.http.HttpTimeoutException ? " (no answer in time)." : "."),
                    "Start it with bin/aio-agent on that host (port " + port + ") and retry; nothing was changed.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(ErrorCode.AGENT_UNREACHABLE, "the call to the KVM agent at " + where + " was interrupted.",
                    "Retry; nothing was changed.");
        }
        try {
            if (rsp.statusCode() / 100 == 2) return json.readValue(rsp.body(), answer);
            AgentError err = json.readValue(rsp.body(), AgentError.class);
            if (rsp.statusCode() == 400) { // the agent refused the command as given: what the caller sent must change
                throw ApiException.badRequest("the KVM agent at " + where + " refused the command: " + err.error() + ".",
                        err.details() == null ? "Check the request's parameters." : err.details() + ".");
            }
            if (rsp.statusCode() == 409) { // the host is busy (a VM start, a benchmark): the caller may retry
                throw new ApiException(ErrorCode.CONFLICT, "the KVM agent at " + where + " is busy: " + err.error(),
                        err.details() == null ? "Retry later." : err.details());
            }
            throw new ApiException(ErrorCode.AGENT_FAILED, "the KVM agent at " + where + " failed: " + err.error(),
                    err.details() == null ? "See the agent's log on that host." : err.details());
        } catch (IOException e) {
            throw new ApiException(ErrorCode.AGENT_FAILED, "the KVM agent at " + where + " answered " + rsp.statusCode()
                    + " with a body that is not the agent protocol.", "Check that port " + port + " runs aio-agent.");
        }
    }
}
