package org.zstack.aio.agent;

import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.HostBenchCancelCmd;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.VmListCmd;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.api.VmWatchCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.bench.BenchDirs;
import org.zstack.aio.agent.bench.HostActivity;
import org.zstack.aio.agent.bench.HostBench;
import org.zstack.aio.agent.host.HostIoCapabilitiesProbe;
import org.zstack.aio.agent.http.AgentHttpServer;
import org.zstack.aio.agent.libvirt.LibvirtHost;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.agent.trust.AgentIdentity;
import org.zstack.aio.agent.trust.CommandGuard;
import org.zstack.aio.agent.trust.StorageRoots;
import org.zstack.aio.agent.vm.QemuPids;
import org.zstack.aio.agent.vm.VmEventPusher;
import org.zstack.aio.agent.vm.VmLister;
import org.zstack.aio.agent.vm.VmLocks;
import org.zstack.aio.agent.vm.VmStarter;
import org.zstack.aio.agent.vm.VmStopper;
import org.zstack.aio.agent.vm.VmMigrator;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.vm.VolumeHotPlugger;
import org.zstack.aio.agent.volume.VolumeCreator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One KVM agent: an HTTPS server, its credentials and the libvirt connection it owns. Embeddable (the management server runs one
 * in-process for its demo) and closeable; nothing is static, so several agents can run in one JVM.
 * <pre>
 * try (KvmAgent agent = KvmAgent.start(AgentSettings.defaults().withPort(0).withBindAddress("127.0.0.1"))) {
 *     URI base = agent.baseUri();   // POST base + AgentPaths.VM_START ...
 * }
 * </pre>
 */
public final class KvmAgent implements AutoCloseable {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(KvmAgent.class.getName());

    private final AgentSettings settings;
    private final AgentIdentity identity;
    private final LibvirtHost libvirt;
    private final AgentHttpServer http;
    private final VmEventPusher events;

    private KvmAgent(AgentSettings settings, AgentIdentity identity, LibvirtHost libvirt, AgentHttpServer http,
                     VmEventPusher events) {
        this.settings = settings;
        this.identity = identity;
        this.libvirt = libvirt;
        this.http = http;
        this.events = events;
    }

    /**
     * Opens the libvirt connection and starts listening.
     *
     * @throws AgentStartException when libvirt cannot be reached or the port cannot be bound (nothing is left open)
     */
    public static KvmAgent start(AgentSettings settings) {
        AgentIdentity identity;
        try {
            identity = AgentIdentity.loadOrCreate(settings.dataDir());
        } catch (RuntimeException e) {
            throw new AgentStartException(e.getMessage(), e);
        }
        LibvirtHost libvirt;
        try {
            libvirt = new LibvirtHost(settings.libvirtUri());
        } catch (LibvirtException e) {
            throw new AgentStartException("cannot connect to libvirt at " + settings.libvirtUri() + ": "
                    + LibvirtHost.message(e) + " (is libvirtd running? see bin/lib/setup-libvirt.sh)", e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new AgentStartException("libvirt's C library is missing (apt-get install libvirt0): " + e, e);
        }
        BenchDirs.sweepAtStart(System.getenv("AIO_BENCH_PATHS")); // leftovers of a benchmark killed with -9
        VmEventPusher events = new VmEventPusher();
        try {
            if (!libvirt.onLifecycle(events::onLifecycle) && libvirt.isQemuDriver()) {
                LOG.warning("no libvirt events: domain state is polled only");
            }
        } catch (LibvirtException e) {
            LOG.warning("no libvirt events (" + LibvirtHost.message(e) + "): domain state is polled only");
        }
        AgentHttpServer http = routes(settings, identity, libvirt, events);
        try {
            http.start(settings.bindAddress(), settings.port(), settings.httpThreads(), settings.longThreads(),
                    AgentSettings.LONG_QUEUE);
        } catch (IOException | UncheckedIOException e) {
            http.close();
            events.close();
            libvirt.close();
            throw new AgentStartException("cannot listen on " + settings.bindAddress() + ":" + settings.port()
                    + ": " + e.getMessage(), e);
        }
        return new KvmAgent(settings, identity, libvirt, http, events);
    }

    private static AgentHttpServer routes(AgentSettings settings, AgentIdentity identity, LibvirtHost libvirt,
                                          VmEventPusher events) {
        CommandGuard guard = new CommandGuard(new StorageRoots(settings.dataDir()));
        ProcessRunner runner = new ProcessRunner(settings.commandTimeout());
        HostIoCapabilitiesProbe probe = new HostIoCapabilitiesProbe(runner, libvirt);
        VolumeCreator volumes = new VolumeCreator(runner);
        QemuPids pids = new QemuPids(settings.qemuRunDir());
        VmStarter starter = new VmStarter(libvirt, settings.refusedIoModes(), pids);
        VmStopper stopper = new VmStopper(libvirt);
        VmMigrator migrator = new VmMigrator(libvirt);
        VmLister lister = new VmLister(libvirt);
        VolumeHotPlugger hotPlugger = new VolumeHotPlugger(libvirt, settings.refusedIoModes());
        VmLocks vms = new VmLocks();
        HostActivity activity = new HostActivity();
        HostBench bench = new HostBench(activity);
        // Every path is authenticated by AgentHttpServer; the guard then confines what an authenticated command
        // may touch to the storage the server registered (connect) and to domains this agent created.
        return new AgentHttpServer(identity.sslContext(), identity::accepts)
                .routeWithOptionalBody(AgentPaths.PING, Map.class, ignored -> ping(libvirt, settings))
                // connect and fact probe the same way: a reconnect must refresh every fact, not reuse old ones.
                .route(AgentPaths.HOST_CONNECT, HostConnectCmd.class, c -> guard.connect(c, probe::probe))
                .route(AgentPaths.HOST_FACT, HostConnectCmd.class, c -> guard.connect(c, probe::probe))
                .routeLongWork(AgentPaths.VOLUME_CREATE, VolumeCreateCmd.class, c -> volumes.create(guard.volumeCreate(c)))
                // a start cancels a running benchmark and never runs alongside it; a benchmark is refused during a start
                .route(AgentPaths.VM_START, VmStartCmd.class,
                        c -> activity.vmStart(() -> vms.with(c.vmUuid(), () -> starter.start(guard.vmStart(c)))))
                // one benchmark at a time and never with a start (HostActivity): it holds at most one request thread
                .route(AgentPaths.HOST_BENCH, HostBenchCmd.class, c -> bench.bench(guard.bench(c)))
                .routeWithOptionalBody(AgentPaths.HOST_BENCH_CANCEL, HostBenchCancelCmd.class, bench::cancel)
                .routeWithOptionalBody(AgentPaths.VM_LIST, VmListCmd.class, lister::list)
                .route(AgentPaths.VM_WATCH, VmWatchCmd.class, events::watch)
                .route(AgentPaths.VM_STOP, VmStopCmd.class, c -> vms.with(c.vmUuid(), () -> stopper.stop(c)))
                .route(AgentPaths.VM_ATTACH_VOLUME, VmAttachVolumeCmd.class,
                        c -> vms.with(c.vmUuid(), () -> hotPlugger.attach(guard.attach(c))))
                // long work: a live migration copies the guest's memory (seconds); one per VM, like every VM change
                .routeLongWork(AgentPaths.VM_MIGRATE, VmMigrateCmd.class,
                        c -> vms.with(c.vmUuid(), () -> migrator.migrate(c)));
    }

    private static Map<String, Object> ping(LibvirtHost libvirt, AgentSettings settings) {
        Map<String, Object> rsp = new LinkedHashMap<>();
        rsp.put("status", "UP");
        rsp.put("libvirtUri", libvirt.uri());
        rsp.put("refusedIoModes", settings.refusedIoModes());
        return rsp;
    }

    /** The port really bound (useful with port 0). */
    public int port() {
        return http.port();
    }

    /** https://HOST:PORT for clients on this machine (127.0.0.1 when bound to every address). */
    public URI baseUri() {
        String host = "0.0.0.0".equals(settings.bindAddress()) || "::".equals(settings.bindAddress())
                ? "127.0.0.1" : settings.bindAddress();
        return URI.create("https://" + host + ":" + port());
    }

    /** The enrollment token a server needs to command this agent (also in {@code <dataDir>/agent-enrollment}). */
    public String enrollmentToken() {
        return identity.token();
    }

    public String libvirtUri() {
        return libvirt.uri();
    }

    public AgentSettings settings() {
        return settings;
    }

    /** Stops listening and closes the libvirt connection. Running domains keep running (they belong to libvirt). */
    @Override
    public void close() {
        http.close();
        events.close();
        libvirt.close();
    }
}
