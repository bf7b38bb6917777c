package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.decision.KnownBadRule;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every known-bad rule of conf/aio/io-mode-rules.yaml fires through the host probe as a host prints it: the real
 * conf/aio/host-probe.sh runs against a host made of files ({@link ProbedHost}: its /proc, its mounts, its tools), its
 * output goes through {@link HostIoProbe} into the host's facts, and the use case ({@link DiskIoModes}) decides a disk
 * on that host. Nothing sets a fact on the decision's input. The same host without the scenario's one fact fires no
 * rule at all, so each firing comes from the fact the probe printed.
 */
class KnownBadRulesThroughTheProbeTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());

    /** How each rule's host differs from the healthy one, and the disk that asks the rule's mode there. */
    private record Scenario(String storageType, String cache, String mode, Consumer<ProbedHost> host) {
    }

    private static final Map<String, Scenario> SCENARIOS = scenarios();

    private static Map<String, Scenario> scenarios() {
        Map<String, Scenario> s = new LinkedHashMap<>();
        s.put("qemu-7.1-io_uring-hang", new Scenario("LocalStorage", "none", "io_uring", h -> h.qemu = "7.1.0"));
        s.put("lvm-io_uring", new Scenario("SharedBlock", "none", "io_uring", h -> { }));
        s.put("cifs-io_uring-kernel-5.15", new Scenario("SharedMountPoint", "none", "io_uring", h -> {
            h.fsType = "cifs";
            h.mountSource = "//filer/share";
            h.release = "5.15.0-91-generic";
        }));
        s.put("btrfs-native-odirect", new Scenario("LocalStorage", "none", "native", h -> h.fsType = "btrfs"));
        s.put("btrfs-io_uring-odirect", new Scenario("LocalStorage", "none", "io_uring", h -> h.fsType = "btrfs"));
        s.put("qemu-5.0-7.0-io_uring-btrfs", new Scenario("LocalStorage", "writeback", "io_uring", h -> {
            h.fsType = "btrfs";
            h.qemu = "6.2.0";
        }));
        s.put("qemu-before-6.1-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> h.qemu = "5.2.0"));
        s.put("liburing.so.1-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> h.liburing = "liburing.so.1"));
        s.put("aio-max-nr-exhausted", new Scenario("LocalStorage", "none", "native", h -> h.aioNr = 65000));
        s.put("qemu-without-linux-aio", new Scenario("LocalStorage", "none", "native", h -> {
            h.nativeBench = "qemu-img: Could not open '/x/.aio-native.img': aio=native was specified, but is not supported in this build.";
            h.nativeExit = 1;
        }));
        s.put("el9-io_uring-off-by-default", new Scenario("LocalStorage", "none", "io_uring", h -> {
            h.release = "5.14.0-427.13.1.el9_4.x86_64";
            h.ioUringDisabled = null; // RHEL 9.2 and older have no such sysctl
        }));
        s.put("zfs-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> {
            h.fsType = "zfs";
            h.mountSource = "tank/zstack";
        }));
        s.put("loop-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> h.mountSource = "/dev/loop3"));
        s.put("kernel-before-5.13-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> {
            h.release = "5.10.0-23-amd64";
            h.ioUringDisabled = null;
        }));
        s.put("qemu-10.2-io_uring-unavailable", new Scenario("LocalStorage", "none", "io_uring", h -> {
            h.qemu = "10.2.0";
            h.uringSetup = "ENOMEM";
            h.ioUringBench = "qemu-img: Could not open '/tmp/x/probe.img': aio=io_uring was specified, but is not available"
                             + " (disabled via io_uring_disabled sysctl or blocked by container runtime seccomp policy?)";
            h.ioUringExit = 1;
        }));
        s.put("seccomp-io_uring", new Scenario("LocalStorage", "none", "io_uring", h -> {
            h.uringSetup = "EPERM";
            h.seccomp = 2;
        }));
        return s;
    }

    private static HostIoFacts healthy;

    /** The healthy host, probed once for every rule. */
    private static synchronized HostIoFacts healthyFacts() throws Exception {
        if (healthy == null) {
            Path dir = java.nio.file.Files.createTempDirectory("aio-healthy-host");
            try {
                healthy = probed(new ProbedHost(dir));
            } finally {
                try (java.util.stream.Stream<Path> all = java.nio.file.Files.walk(dir)) {
                    all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
        return healthy;
    }

    private static HostIoFacts probed(ProbedHost host) throws Exception {
        Shell.Result r = host.probe();
        assertThat(r.exit()).as("probe exit; stderr: %s", r.err()).isZero();
        return HostIoProbe.read("h1", r.out(), null, null, null).facts();
    }

    /** Decides one disk asking {@code mode} on the host, and returns the decision's record. */
    private static DecisionRecord decide(HostIoFacts facts, String storageType, String cache, String mode) {
        FakePorts ports = new FakePorts().host(facts, AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("root").name("root").storage("ps1", storageType)
                        .image("SharedBlock".equals(storageType) ? "raw" : "qcow2", "full").sizes(10L << 30, 10L << 30)
                        .cacheMode(cache).build())
                .override("root", IoModeConfig.IO_MODE, mode);
        return IO_MODES.plan(DiskRequest.start("vm1", new HostRef("h1", "kvm1"), Collections.singletonList("root")), ports)
                .disk("root").record();
    }

    private static Set<String> knownBad(DecisionRecord r) {
        return r.getChecks().stream().filter(c -> !c.isPassed() && c.getCheck().startsWith("known-bad:"))
                .map(c -> c.getCheck().substring("known-bad:".length())).collect(Collectors.toSet());
    }

    /**
     * The scenario's host fires {@code rule} for a disk asking {@code mode}, which then runs another mode; the healthy
     * host fires nothing for the same disk.
     */
    static List<String> ruleIds() {
        return IO_MODES.rules().knownBad().stream().map(KnownBadRule::id).collect(Collectors.toList());
    }

    @Test
    void theRulesFileHasSixteenRulesAndEachHasAScenario() {
        assertThat(ruleIds()).hasSize(16);
        assertThat(SCENARIOS.keySet()).containsExactlyInAnyOrderElementsOf(ruleIds());
    }

    /**
     * The probe gathers every named fact a shipped rule tests (kernel.io_uring_disabled is its typed io_uring_disabled
     * line), so a rule on a new fact fails here until the probe prints it.
     */
    @Test
    void theProbeGathersEveryNamedFactTheRulesTest() {
        Set<String> tested = new java.util.TreeSet<>();
        for (KnownBadRule r : IO_MODES.rules().knownBad()) {
            tested.addAll(r.probes().in().keySet());
            tested.addAll(r.probes().below().keySet());
            tested.addAll(r.probes().matching().keySet());
            tested.addAll(r.probes().unless().keySet());
        }
        tested.remove(org.zstack.aio.decision.HostFacts.IO_URING_DISABLED);
        assertThat(HostIoProbe.RULE_FACTS).containsExactlyInAnyOrderElementsOf(tested);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ruleIds")
    void theRuleFiresThroughTheProbesOutput(String rule, @TempDir Path dir) throws Exception {
        Scenario sc = SCENARIOS.get(rule);
        assertThat(sc).as("a scenario for rule %s", rule).isNotNull();
        fires(dir, rule, sc.storageType(), sc.cache(), sc.mode(), sc.host());
    }

    private static void fires(Path dir, String rule, String storageType, String cache, String mode,
                              Consumer<ProbedHost> scenario) throws Exception {
        DecisionRecord before = decide(healthyFacts(), storageType, cache, mode);
        ProbedHost host = new ProbedHost(dir.resolve("host"));
        scenario.accept(host);
        DecisionRecord after = decide(probed(host), storageType, cache, mode);
        assertThat(knownBad(after)).as("rules fired for %s on the scenario's host; reason: %s", mode, after.getReason())
                .contains(rule);
        assertThat(after.getEffective()).isNotEqualTo(mode);
        if (!"lvm-io_uring".equals(rule)) {
            // the healthy host fires nothing: the rule came from the fact the probe printed
            assertThat(knownBad(before)).as("rules fired on the healthy host").isEmpty();
            assertThat(before.getEffective()).isEqualTo(mode);
        }
    }
}
