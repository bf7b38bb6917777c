package org.zstack.aio.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything an agent instance needs, immutable, so several agents (tests, the server's in-process demo agent)
 * can live in one JVM without sharing state.
 *
 * @param bindAddress    address to listen on; "0.0.0.0" for a real agent, "127.0.0.1" for an embedded one
 * @param port           HTTP port; 0 picks a free one (see {@link KvmAgent#port()})
 * @param libvirtUri     e.g. qemu:///system or test:///default
 * @param refusedIoModes io modes the agent treats as refused by QEMU (fault injection, see docs/agent.md);
 *                       empty in production
 * @param qemuRunDir     where libvirt's QEMU driver writes NAME.pid
 * @param commandTimeout limit for one qemu-img run (full preallocation of a big image takes a while)
 * @param httpThreads    request threads; a VM start blocks one for about a second on real QEMU
 * @param dataDir        the agent's credentials (key, secret, enrollment token) and registered storage roots
 * @param longThreads    image creations that run at once (each writes up to its whole size through qemu-img);
 *                       more wait in a queue of {@link #LONG_QUEUE}, beyond that 409; they never hold the request
 *                       threads that VM starts and stops need
 */
public record AgentSettings(String bindAddress, int port, String libvirtUri, Set<String> refusedIoModes,
                            Path qemuRunDir, Duration commandTimeout, int httpThreads, Path dataDir, int longThreads) {

    public static final int DEFAULT_PORT = 7070;
    public static final String ENV_PORT = "AIO_AGENT_PORT";
    public static final String ENV_LIBVIRT_URI = "AIO_LIBVIRT_URI";
    /** Comma-separated io modes to refuse on purpose, e.g. {@code io_uring}. */
    public static final String ENV_REFUSE_IO = "AIO_AGENT_REFUSE_IO";
    public static final String ENV_DATA_DIR = "AIO_DATA_DIR";
    /** Bounded so that a queued creation still starts well within the server's 120 s wait (1 GiB full: ~3 s). */
    public static final int LONG_QUEUE = 32;
    private static final Path LIBVIRT_SOCKET = Path.of("/run/libvirt/libvirt-sock");

    public AgentSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (httpThreads < 1) {
            throw new IllegalArgumentException("httpThreads must be >= 1, was " + httpThreads);
        }
        refusedIoModes = refusedIoModes == null ? Set.of() : Set.copyOf(refusedIoModes);
        bindAddress = bindAddress == null ? "0.0.0.0" : bindAddress;
        libvirtUri = libvirtUri == null || libvirtUri.isBlank() ? defaultLibvirtUri() : libvirtUri;
        qemuRunDir = qemuRunDir == null ? Path.of("/run/libvirt/qemu") : qemuRunDir;
        commandTimeout = commandTimeout == null ? Duration.ofMinutes(10) : commandTimeout;
        dataDir = dataDir == null ? Path.of("data") : dataDir;
        if (longThreads < 1) {
            throw new IllegalArgumentException("longThreads must be >= 1, was " + longThreads);
        }
    }

    /** Port 7070, the default libvirt URI, no injected refusals; reads no environment. */
    public static AgentSettings defaults() {
        // one creation at a time: a disk gains nothing from more writers, and with two the page cache flood of full
        // preallocation delayed a VM start by ~0.9 s, with one by none (measured, docs/security.md)
        return new AgentSettings("0.0.0.0", DEFAULT_PORT, null, Set.of(), null, null, 16, null, 1);
    }

    /** {@link #defaults()} overridden by AIO_AGENT_PORT, AIO_LIBVIRT_URI, AIO_DATA_DIR and AIO_AGENT_REFUSE_IO when set. */
    public static AgentSettings fromEnvironment(Map<String, String> env) {
        AgentSettings s = defaults();
        String port = env.get(ENV_PORT);
        if (port != null && !port.isBlank()) {
            try {
                s = s.withPort(Integer.parseInt(port.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(ENV_PORT + " must be a number, was '" + port + "'", e);
            }
        }
        String dir = env.get(ENV_DATA_DIR);
        if (dir != null && !dir.isBlank()) {
            s = s.withDataDir(Path.of(dir.trim()));
        }
        String uri = env.get(ENV_LIBVIRT_URI);
        if (uri != null && !uri.isBlank()) {
            s = s.withLibvirtUri(uri.trim());
        }
        return s.withRefusedIoModes(parseModes(env.get(ENV_REFUSE_IO)));
    }

    /** qemu:///system when a libvirt daemon listens here, libvirt's in-process test driver otherwise (docs/contract.md, "Commands and settings"). */
    public static String defaultLibvirtUri() {
        return Files.exists(LIBVIRT_SOCKET) ? "qemu:///system" : "test:///default";
    }

    public static Set<String> parseModes(String csv) {
        if (csv == null || csv.isBlank()) {
            return Set.of();
        }
        return Arrays.stream(csv.split(","))
                .map(m -> m.trim().toLowerCase(Locale.ROOT))
                .filter(m -> !m.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    public AgentSettings withBindAddress(String v) {
        return new AgentSettings(v, port, libvirtUri, refusedIoModes, qemuRunDir, commandTimeout, httpThreads, dataDir, longThreads);
    }

    public AgentSettings withPort(int v) {
        return new AgentSettings(bindAddress, v, libvirtUri, refusedIoModes, qemuRunDir, commandTimeout, httpThreads, dataDir, longThreads);
    }

    public AgentSettings withLibvirtUri(String v) {
        return new AgentSettings(bindAddress, port, v, refusedIoModes, qemuRunDir, commandTimeout, httpThreads, dataDir, longThreads);
    }

    public AgentSettings withRefusedIoModes(Set<String> v) {
        return new AgentSettings(bindAddress, port, libvirtUri, v, qemuRunDir, commandTimeout, httpThreads, dataDir, longThreads);
    }

    public AgentSettings withCommandTimeout(Duration v) {
        return new AgentSettings(bindAddress, port, libvirtUri, refusedIoModes, qemuRunDir, v, httpThreads, dataDir, longThreads);
    }

    public AgentSettings withDataDir(Path v) {
        return new AgentSettings(bindAddress, port, libvirtUri, refusedIoModes, qemuRunDir, commandTimeout, httpThreads, v, longThreads);
    }

    public AgentSettings withLongThreads(int v) {
        return new AgentSettings(bindAddress, port, libvirtUri, refusedIoModes, qemuRunDir, commandTimeout, httpThreads, dataDir, v);
    }
}
