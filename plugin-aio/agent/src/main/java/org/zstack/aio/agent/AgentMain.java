package org.zstack.aio.agent;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code aio-agent [--port 7070] [--libvirt-uri URI] [--refuse-io MODES]}; flags win over AIO_* variables. */
@Command(name = "aio-agent", mixinStandardHelpOptions = true, subcommands = {BenchCommand.class, EnrollmentCommand.class},
        description = "The KVM agent: HTTPS + JSON commands from the enrolled management server, applied through libvirt.")
public final class AgentMain implements Callable<Integer> {

    @Option(names = "--port", description = "HTTP port (env AIO_AGENT_PORT, default 7070)")
    Integer port;

    @Option(names = "--libvirt-uri", description = "libvirt URI (env AIO_LIBVIRT_URI, default qemu:///system when "
            + "/run/libvirt/libvirt-sock exists, else test:///default)")
    String libvirtUri;

    @Option(names = "--bind", description = "address to listen on (default 0.0.0.0)")
    String bind;

    @Option(names = "--data-dir", description = "credentials and storage roots (env AIO_DATA_DIR, default ./data)")
    java.nio.file.Path dataDir;

    @Option(names = "--refuse-io", split = ",", description = "FAULT INJECTION: treat these io modes as refused by "
            + "QEMU (env AIO_AGENT_REFUSE_IO), e.g. io_uring")
    Set<String> refuseIo;

    @Override
    public Integer call() throws InterruptedException {
        AgentSettings s = AgentSettings.fromEnvironment(System.getenv());
        if (port != null) {
            s = s.withPort(port);
        }
        if (libvirtUri != null) {
            s = s.withLibvirtUri(libvirtUri);
        }
        if (bind != null) {
            s = s.withBindAddress(bind);
        }
        if (dataDir != null) {
            s = s.withDataDir(dataDir);
        }
        if (refuseIo != null) {
            s = s.withRefusedIoModes(AgentSettings.parseModes(String.join(",", refuseIo)));
        }
        KvmAgent agent;
        try {
            agent = KvmAgent.start(s);
        } catch (AgentStartException e) {
            System.err.println("aio-agent: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.close();
            stopped.countDown();
        }, "aio-agent-shutdown"));
        // the token itself is never logged: it is a credential
        System.out.println("aio-agent: enrollment token in " + s.dataDir().toAbsolutePath().resolve("agent-enrollment")
                + " (print it with: bin/aio-agent enrollment)");
        System.out.println("aio-agent listening (HTTPS) on " + s.bindAddress() + ":" + agent.port() + ", libvirt "
                + agent.libvirtUri() + (s.refusedIoModes().isEmpty() ? ""
                : ", INJECTED io refusals: " + s.refusedIoModes()));
        stopped.await();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new AgentMain()).execute(args));
    }
}
