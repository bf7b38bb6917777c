package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.trust.AgentIdentity;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.api.VmListCmd;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.VolumeCreateRsp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A KVM agent that answers instantly and accepts every disk as sent: for load tests of the management server,
 * where the real agent's second per VM start would hide the server's own cost. Speaks the real agent protocol,
 * trust included: HTTPS with its own credentials (the real {@link AgentIdentity}), 401 without them.
 */
public final class SimulatedAgent implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpsServer http;
    private final AgentIdentity identity;
    public final AtomicLong starts = new AtomicLong();
    public final AtomicLong stops = new AtomicLong();
    /** When set, /vm/start reads the command and then drops the connection, as an agent killed mid-start would. */
    public volatile boolean dieDuringStart;
    /** When positive, /vm/start answers only after this long, as a slow host would. */
    public volatile long startDelayMillis;
    /** The domains this agent "runs", as /vm/list reports them (a test may remove one: a domain gone outside). */
    public final Set<String> running = ConcurrentHashMap.newKeySet();
    /** The disks of each running domain as its live XML would have them. */
    public final Map<String, List<VmListRsp.Disk>> disks = new ConcurrentHashMap<>();
    /** When set, /vm/attach-volume attaches only after this latch opens. */
    public volatile CountDownLatch holdAttaches;
    public final AtomicLong attaches = new AtomicLong();
    /** Starts of a VM whose domain already ran: with a real host, a second QEMU for one VM. */
    public final AtomicLong duplicateStarts = new AtomicLong();
    /** When set, /vm/stop carries the stop out only after this latch opens (a hung agent, as under SIGSTOP). */
    public volatile CountDownLatch holdStops;
    /** When set, /ping does not answer (a dead agent, to the host tracker). */
    public volatile boolean pingsFail;
    /** When set, /vm/stop also drops the connection without answering. */
    public volatile boolean dieDuringStop;
    /**
     * What /vm/list {blockStats:true} reports: each disk's counters by its source path, read at {@code atMillis} on
     * this agent's clock (a test moves both at once, so the deltas the server sees are exact).
     */
    public volatile Counters counters = new Counters(Map.of(), System.currentTimeMillis());
    /** /vm/list calls that asked for block counters. */
    public final AtomicLong blockStatsLists = new AtomicLong();
    /** A libvirt id per QEMU start: a new one each time a domain starts. */
    private final Map<String, Long> domainIds = new ConcurrentHashMap<>();
    private final AtomicLong nextDomainId = new AtomicLong(1);
    /** What /host/bench answers (for any path): the cells of a benchmark this test chose. */
    public volatile List<HostBenchRsp.BenchCell> benchCells = List.of();

    /** Block counters by disk source path, and when they were read. */
    public record Counters(Map<String, VmListRsp.BlockStats> bySource, long atMillis) {
    }

    /** The kernel and QEMU versions /host/connect reports. */
    public volatile String kernel = "6.8.0";
    public volatile String qemu = "8.2.0";
    /**
     * Each storage path's facts at /host/connect; by default O_DIRECT works and nothing else is known. A test may hand
     * it the real agent's gathering (its StoragePathProbe over a recorded mount table).
     */
    public volatile java.util.function.Function<String, StoragePathFacts> storagePaths =
            p -> new StoragePathFacts(Path.of(p).toString(), true, null);

    public SimulatedAgent() throws IOException {
        org.zstack.aio.agent.http.AgentHttpServer.tuneJdkServer(); // as the real agent: no delayed-ACK wait, idle kept
        identity = AgentIdentity.loadOrCreate(Path.of(Storage.dir("sim-agent-data")));
        http = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        http.setHttpsConfigurator(new HttpsConfigurator(identity.sslContext()));
        http.setExecutor(Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "simulated-agent");
            t.setDaemon(true);
            return t;
        }));
        context(AgentPaths.HOST_CONNECT, ex -> {
            HostConnectCmd c = JSON.readValue(ex.getRequestBody(), HostConnectCmd.class);
            java.util.function.Function<String, StoragePathFacts> gather = storagePaths;
            reply(ex, new HostFactsRsp("sim", kernel, 0, qemu, true, null, true, null, "10.0.0", "test:///default",
                    c.storagePaths().stream().map(gather).toList()));
        });
        context(AgentPaths.VOLUME_CREATE, ex -> {
            VolumeCreateCmd c = JSON.readValue(ex.getRequestBody(), VolumeCreateCmd.class);
            boolean full = "full".equals(c.preallocation());
            reply(ex, new VolumeCreateRsp(c.storagePath() + "/" + c.volumeUuid() + "." + c.format(), c.size(),
                    full ? c.size() : 196_608));
        });
        context(AgentPaths.VM_START, ex -> {
            VmStartCmd c = JSON.readValue(ex.getRequestBody(), VmStartCmd.class);
            starts.incrementAndGet();
            if (startDelayMillis > 0) {
                try {
                    Thread.sleep(startDelayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (dieDuringStart) {
                ex.close(); // the command was received in full; the "process" dies without answering
                return;
            }
            if (running.contains(c.vmUuid())) duplicateStarts.incrementAndGet();
            disks.put(c.vmUuid(), new java.util.concurrent.CopyOnWriteArrayList<>(c.disks().stream().map(SimulatedAgent::live).toList()));
            running.add(c.vmUuid());
            domainIds.put(c.vmUuid(), nextDomainId.getAndIncrement());
            reply(ex, new VmStartRsp(c.vmUuid(), null, c.disks().stream().map(d -> new DiskResult(d.volumeUuid(),
                    d.ioCandidates().isEmpty() ? null : d.ioCandidates().get(0), d.cache(), List.of())).toList()));
        });
        context(AgentPaths.VM_STOP, ex -> {
            VmStopCmd c = JSON.readValue(ex.getRequestBody(), VmStopCmd.class);
            stops.incrementAndGet();
            if (dieDuringStop) {
                ex.close();
                return;
            }
            await(holdStops);
            running.remove(c.vmUuid());
            disks.remove(c.vmUuid());
            try {
                reply(ex, Map.of());
            } catch (IOException e) {
                // the server stopped waiting long ago: the stop was carried out all the same
            }
        });
        context(AgentPaths.PING, ex -> {
            if (pingsFail) {
                ex.close();
                return;
            }
            reply(ex, Map.of("status", "UP"));
        });
        // the subscription is taken and no event is ever pushed: the server's periodic sync does the work
        context(AgentPaths.VM_WATCH, ex -> reply(ex, Map.of()));
        context(AgentPaths.VM_LIST, ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            boolean stats = body.length > 0 && JSON.readValue(body, VmListCmd.class).wantsBlockStats();
            if (stats) blockStatsLists.incrementAndGet();
            Counters now = counters;
            reply(ex, new VmListRsp(running.stream().map(u -> !stats
                    ? new VmListRsp.Domain(u, "running", disks.getOrDefault(u, List.of()))
                    : new VmListRsp.Domain(u, "running", disks.getOrDefault(u, List.of()).stream()
                            .map(d -> new VmListRsp.Disk(d.target(), d.source(), d.io(), d.cache(), now.bySource().get(d.source())))
                            .toList(), domainIds.getOrDefault(u, 0L))).toList(), stats ? now.atMillis() : null));
        });
        context(AgentPaths.HOST_BENCH, ex -> {
            HostBenchCmd c = JSON.readValue(ex.getRequestBody(), HostBenchCmd.class);
            reply(ex, new HostBenchRsp(c.path(), java.time.Instant.now().toString(), 0.1, 50, true, null, "qemu-img (simulated)",
                    benchCells));
        });
        context(AgentPaths.VM_ATTACH_VOLUME, ex -> {
            VmAttachVolumeCmd c = JSON.readValue(ex.getRequestBody(), VmAttachVolumeCmd.class);
            attaches.incrementAndGet();
            await(holdAttaches);
            disks.computeIfAbsent(c.vmUuid(), k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(live(c.disk()));
            DiskTO d = c.disk();
            reply(ex, new DiskResult(d.volumeUuid(), d.ioCandidates().isEmpty() ? null : d.ioCandidates().get(0), d.cache(), List.of()));
        });
        http.start();
    }

    private static VmListRsp.Disk live(DiskTO d) {
        return new VmListRsp.Disk(DiskTargets.virtio(d.deviceId()), d.installPath(),
                d.ioCandidates().isEmpty() ? null : d.ioCandidates().get(0), d.cache());
    }

    private static void await(CountDownLatch hold) {
        if (hold == null) return;
        try {
            hold.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Authenticated like the real agent: without the enrolled secret, 401 and nothing runs. As the real agent, it
     * reads the whole request before any answer, whether or not the handler wants the body: the JDK's HttpsServer
     * would otherwise read the rest after the answer, and that read can swallow the server's next request on the
     * kept-alive connection (AgentHttpServer says how). Its /ping and /vm/watch, which need no body, once made a
     * /vm/start of the two-node soak wait out its 60 s.
     */
    private void context(String path, HttpHandler handler) {
        http.createContext(path, ex -> {
            if (!identity.accepts(ex.getRequestHeaders().getFirst(AgentAuth.HEADER))) {
                ex.getResponseHeaders().set("Connection", "close");
                ex.sendResponseHeaders(401, -1);
                ex.close();
                return;
            }
            ex.setStreams(new ByteArrayInputStream(ex.getRequestBody().readAllBytes()), null);
            handler.handle(ex);
        });
    }

    public String enrollmentToken() {
        return identity.token();
    }

    public int port() {
        return http.getAddress().getPort();
    }

    private static void reply(HttpExchange ex, Object body) throws IOException {
        byte[] b = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
