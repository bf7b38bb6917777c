package org.zstack.aio.test.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An open-loop load of resource-config writes and reads: requests are sent at a fixed rate whatever the answers do
 * (a closed loop of N workers sends nothing while its workers wait out a write stall, so it never holds the rate
 * through a database failover). Latency is measured from the time a request was due, not sent, so a stall is not
 * hidden by the generator itself (no coordinated omission).
 * <p>Every other request is a write. A key (one primary storage's {@code vm.ioMode.native.allowFalloc}) has at most one
 * write in flight, so its last acknowledged value is the value it must have afterwards on every database node; when
 * every key has a write in flight (a long stall), the request due is a read instead, and counted.
 */
public final class OpenLoopLoad {

    /** One request: when it was due, when its answer came, its status (599: no answer), whether it wrote. */
    public record Sample(long dueNanos, long doneNanos, int status, boolean write, String answer) {
    }

    public record Target(String baseUrl, String session) {
    }

    private static final List<String> VALUES = List.of("true", "false");

    private final List<Target> targets;
    private final List<String> keys;
    private final int perSecond;
    /**
     * Several clients, used in turn: one JDK HttpClient handles all its connections on one selector thread, and with
     * ~2,500 requests in flight behind a failover stall that thread fell behind, so connects it had not yet completed
     * timed out on the client's side (seen with JDK 17.0.21: 492-929 "HTTP connect timed out" in a run).
     */
    private final List<HttpClient> clients = java.util.stream.IntStream.range(0, 8).mapToObj(i -> HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).executor(Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "open-loop-client");
                t.setDaemon(true);
                return t;
            })).build()).toList();
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final Map<String, String> lastAcked = new ConcurrentHashMap<>();
    private final Map<String, AtomicBoolean> writing = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    private final AtomicLong due = new AtomicLong();
    private final AtomicLong readsInsteadOfWrites = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private ScheduledExecutorService ticker;
    private long startNanos;
    private long stopNanos;

    public OpenLoopLoad(List<Target> targets, List<String> keys, int perSecond) {
        this.targets = targets;
        this.keys = keys;
        this.perSecond = perSecond;
        keys.forEach(k -> {
            writing.put(k, new AtomicBoolean());
            writes.put(k, new AtomicInteger());
        });
    }

    public void start() {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "open-loop-ticker"));
        startNanos = System.nanoTime();
        long period = 1_000_000_000L / perSecond;
        ticker.scheduleAtFixedRate(this::sendOne, 0, period, TimeUnit.NANOSECONDS);
    }

    /** Stops sending and waits (up to a minute) for the answers of what was sent. */
    public void stop() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        stopNanos = System.nanoTime();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (inFlight.get() > 0 && System.nanoTime() < deadline) Thread.sleep(50);
    }

    private void sendOne() {
        long n = due.getAndIncrement();
        long dueAt = startNanos + n * (1_000_000_000L / perSecond);
        Target t = targets.get((int) (n % targets.size()));
        boolean wantsWrite = n % 2 == 0;
        String claimed = wantsWrite ? freeKey(n) : null;
        boolean write = claimed != null;
        if (wantsWrite && !write) readsInsteadOfWrites.incrementAndGet();
        String k = write ? claimed : keys.get((int) ((n / 2) % keys.size()));
        String value = write ? VALUES.get(writes.get(k).getAndIncrement() % VALUES.size()) : null;
        HttpRequest.Builder b = HttpRequest.newBuilder().timeout(Duration.ofSeconds(60))
                .header("Authorization", "OAuth " + t.session());
        HttpRequest req = write
                ? b.uri(URI.create(t.baseUrl() + "/v1/resource-configurations/kvm/vm.ioMode.native.allowFalloc/" + k + "/actions"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"updateResourceConfig\":{\"value\":\"" + value + "\"}}")).build()
                : b.uri(URI.create(t.baseUrl() + "/v1/resource-configurations/" + k + "/kvm/vm.ioMode.native.allowFalloc")).GET().build();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        clients.get((int) (n % clients.size())).sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((rsp, err) -> {
            int status = err != null ? 599 : rsp.statusCode();
            if (write) {
                if (status / 100 == 2) lastAcked.put(k, value);
                writing.get(k).set(false);
            }
            samples.add(new Sample(dueAt, System.nanoTime(), status, write,
                    status / 100 == 2 ? "" : err != null ? err.toString() : rsp.body()));
            inFlight.decrementAndGet();
        });
    }

    /** The next key without a write in flight, claimed; null when every key has one. */
    private String freeKey(long n) {
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get((int) ((n / 2 + i) % keys.size()));
            if (writing.get(k).compareAndSet(false, true)) return k;
        }
        return null;
    }

    public List<Sample> samples() {
        return new ArrayList<>(samples);
    }

    public Map<String, String> lastAcked() {
        return Map.copyOf(lastAcked);
    }

    public long readsInsteadOfWrites() {
        return readsInsteadOfWrites.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    public int stillInFlight() {
        return inFlight.get();
    }

    /** Requests due per second over the run (the rate the generator held). */
    public double sentPerSecond() {
        return due.get() / ((stopNanos - startNanos) / 1e9);
    }

    public double seconds() {
        return (stopNanos - startNanos) / 1e9;
    }
}
