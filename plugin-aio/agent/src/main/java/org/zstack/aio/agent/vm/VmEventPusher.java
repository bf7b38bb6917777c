package org.zstack.aio.agent.vm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.libvirt.Domain;
import org.libvirt.LibvirtException;
import org.libvirt.event.DomainEvent;
import org.zstack.aio.agent.api.VmEventCmd;
import org.zstack.aio.agent.api.VmWatchCmd;
import org.zstack.aio.agent.http.AgentException;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;

/**
 * Pushes the lifecycle events of managed domains to the servers that asked for them in the last minute, so a
 * domain that stops outside the platform is seen in seconds. Best effort: a lost event is caught by the next sync.
 */
public final class VmEventPusher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(VmEventPusher.class.getName());
    static final Duration WATCH_FOR = Duration.ofMinutes(1);

    private final Map<String, Instant> watchers = new ConcurrentHashMap<>();
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "vm-event-push");
        t.setDaemon(true);
        return t;
    });

    public Map<String, Object> watch(VmWatchCmd cmd) {
        URI uri;
        try {
            uri = cmd.callbackUrl() == null ? null : URI.create(cmd.callbackUrl());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw AgentException.badCommand("bad callbackUrl '" + cmd.callbackUrl() + "'", "send the server's http(s) URL for events");
        }
        watchers.put(uri.toString(), Instant.now().plus(WATCH_FOR));
        return Map.of("watching", watchers.size());
    }

    /** The libvirt lifecycle listener: runs on libvirt's event thread, so it only queues the pushes. */
    public int onLifecycle(Domain dom, DomainEvent event) {
        String name;
        try {
            name = dom.getName();
        } catch (LibvirtException e) {
            return 0;
        }
        if (!VmLister.VM_UUID.matcher(name).matches()) return 0;
        byte[] body;
        try {
            body = json.writeValueAsBytes(new VmEventCmd(name, String.valueOf(event.getType())));
        } catch (JsonProcessingException e) {
            return 0;
        }
        Instant now = Instant.now();
        watchers.entrySet().removeIf(w -> w.getValue().isBefore(now));
        for (String url : watchers.keySet()) sender.execute(() -> push(url, body));
        return 0;
    }

    private void push(String url, byte[] body) {
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.fine("could not push a VM event to " + url + ": " + e);
        }
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }
}
