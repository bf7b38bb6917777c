package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A start libvirt or QEMU refused an io mode at: the use case recognises their words (the rules' startRefusals) in the
 * start's error as ZStack reports it, finds the disk, says what to remember on the host × storage and what the next
 * start uses; the next start, with the refusal remembered, does not try the mode there.
 */
class StartRefusalTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    private static final HostRef H1 = new HostRef("h1", "kvm1");
    private static final String AT = "2026-11-27T10:00:00.000Z";
    private static final String ROOT = "/zstack_ps/rootVolumes/acct-1/vol-root/root.qcow2";
    private static final String DATA = "/mnt/nfs/dataVolumes/acct-1/vol-data/data.qcow2";

    /** QEMU 7.2's words under a seccomp filter refusing io_uring_setup (HostProbeScriptTest saw them on this machine). */
    private static final String QEMU_URING = "Unable to use io_uring: failed to init linux io_uring ring: Operation not permitted";

    /**
     * A start failure as ZStack 5.2.0 reports it: KVMHost's "failed to start vm[...] on kvm host[...], because" and
     * the kvmagent's traceback (vm_plugin.py start_vm: rsp.error = the stack trace) ending in its KvmError with
     * libvirt's error, which quotes QEMU's stderr line (its -blockdev argument, then QEMU's words).
     */
    private static String zstackError(String libvirtError) {
        return "failed to start vm[uuid:vm1 name:vm-1] on kvm host[uuid:h1, ip:10.0.0.11], because Traceback (most recent call"
               + " last):\n  File \"/var/lib/zstack/virtualenv/kvm/lib/python2.7/site-packages/kvmagent/plugins/vm_plugin.py\","
               + " line 7120, in start_vm\n    self._start_vm(cmd)\n  File \"/var/lib/zstack/virtualenv/kvm/lib/python2.7/"
               + "site-packages/kvmagent/plugins/vm_plugin.py\", line 6979, in _start_vm\n    'unable to start vm[uuid:%s,"
               + " name:%s], libvirt error: %s' % (cmd.vmInstanceUuid, cmd.vmName, str(e)))\nKvmError: unable to start"
               + " vm[uuid:vm1, name:vm-1], libvirt error: " + libvirtError + "\n";
    }

    private static String qemuClosed(String path, String aio, String words) {
        return "internal error: QEMU unexpectedly closed the monitor (vm='vm1'): 2026-11-27T10:00:00.123456Z"
               + " qemu-system-x86_64: -blockdev {\"driver\":\"file\",\"filename\":\"" + path + "\",\"node-name\":"
               + "\"libvirt-2-storage\",\"auto-read-only\":true,\"discard\":\"unmap\",\"aio\":\"" + aio + "\",\"cache\":"
               + "{\"direct\":true,\"no-flush\":false}}: " + words;
    }

    private static HostIoFacts capable() {
        return HostIoFacts.builder("h1").kernel(Version.parse("6.1.0")).ioUringDisabled(0).qemu(Version.parse("7.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build();
    }

    /** root on LocalStorage ps1, data on NFS ps2, both asking io_uring, on a host where io_uring passes every check. */
    private static FakePorts ports(HostIoFacts host) {
        return new FakePorts().host(host, AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("vol-root").name("root").storage("ps1", "LocalStorage").image("qcow2", "full")
                        .sizes(10L << 30, 10L << 30).cacheMode("none").build())
                .volume(VolumeIoFacts.builder("vol-data").name("data").storage("ps2", "NFS").image("qcow2", "full")
                        .sizes(10L << 30, 10L << 30).cacheMode("none").build())
                .override("vol-root", IoModeConfig.IO_MODE, "io_uring").override("vol-data", IoModeConfig.IO_MODE, "io_uring");
    }

    private static final DiskRequest START = DiskRequest.start("vm1", H1, Arrays.asList("vol-root", "vol-data"));

    private static Map<String, String> paths() {
        Map<String, String> m = new HashMap<>();
        m.put("vol-root", ROOT);
        m.put("vol-data", DATA);
        return m;
    }

    @Test
    void qemusRefusalOfOneDisksIoUringIsRememberedAndTheNextStartStepsThatDiskDown() {
        FakePorts ports = ports(capable());
        DiskPlan plan = IO_MODES.plan(START, ports);
        assertThat(plan.disk("vol-data").set()).isEqualTo(IoMode.IO_URING);
        StartRefusal r = IO_MODES.startFailed(plan, zstackError(qemuClosed(DATA, "io_uring", QEMU_URING)), paths(), AT, ports);

        assertThat(r.recognised()).isTrue();
        assertThat(r.disks()).singleElement().satisfies(d -> {
            assertThat(d.volumeUuid()).isEqualTo("vol-data");
            assertThat(d.refused()).isEqualTo(IoMode.IO_URING);
            assertThat(d.by()).isEqualTo("QEMU");
            assertThat(d.said()).isEqualTo(QEMU_URING);
            assertThat(d.refusalId()).isEqualTo("qemu-io_uring-ring-init");
            assertThat(d.next()).isEqualTo(IoMode.NATIVE);
        });
        assertThat(r.remember()).singleElement().satisfies(f -> {
            assertThat(f.getHostUuid()).isEqualTo("h1");
            assertThat(f.getPrimaryStorageUuid()).isEqualTo("ps2");
            assertThat(f.getMode()).isEqualTo("io_uring");
            assertThat(f.getVolumeUuid()).isEqualTo("vol-data");
            assertThat(f.getVmInstanceUuid()).isEqualTo("vm1");
            assertThat(f.getRefusedAt()).isEqualTo(AT);
            assertThat(f.getQemu()).isEqualTo("7.2.0");
            assertThat(f.getLibvirt()).isEqualTo("9.0.0");
            assertThat(f.getClearedBy()).containsExactly("admin", "readBack");
        });
        assertThat(r.refusal().volumeUuid()).isEqualTo("vol-data");
        assertThat(r.refusal().sentence()).isEqualTo("volume data (vol-data) could not start with io_uring on host kvm1 (h1):"
                + " QEMU refused it (\"" + QEMU_URING + "\"). The refusal is remembered for this host and primary storage ps2,"
                + " so the next start of the VM runs the volume with native.");
        assertThat(r.refusal().whatToDo()).isEqualTo("Start the VM again. QEMU's refusal stays remembered until an admin"
                + " clears it, or a read-back finds a disk here running io_uring.");

        // the platform stores the fact; the next start reads it with the host's facts and does not try io_uring there
        ports.host(capable().withRefused(r.remember()), AgentProfile.ZSTACK_STOCK);
        DiskPlan next = IO_MODES.plan(START, ports);
        PlannedDisk data = next.disk("vol-data");
        assertThat(data.set()).isEqualTo(IoMode.NATIVE);
        assertThat(data.candidates()).doesNotContain(IoMode.IO_URING);
        assertThat(data.record().getChecks()).anySatisfy(c -> {
            assertThat(c.getCheck()).isEqualTo("remembered-refusal");
            assertThat(c.getMode()).isEqualTo("io_uring");
            assertThat(c.isPassed()).isFalse();
            assertThat(c.getMessage()).startsWith("QEMU refused io_uring for volume vol-data at a start on this host"
                    + " (2026-11-27T10:00:00.000Z, QEMU 7.2.0, libvirt 9.0.0)").contains(QEMU_URING);
        });
        assertThat(data.record().getAttempts()).singleElement().satisfies(a -> {
            assertThat(a.getIo()).isEqualTo("io_uring");
            assertThat(a.getError()).isEqualTo("QEMU at " + AT + ": " + QEMU_URING);
        });
        // the other storage was not refused: root keeps io_uring, and its record has no attempts
        assertThat(next.disk("vol-root").set()).isEqualTo(IoMode.IO_URING);
        assertThat(next.disk("vol-root").record().getAttempts()).isNull();
    }

    @Test
    void withFailTheStartFailsNamingTheRefusalAndTheNextStartIsRefusedBeforeTheHost() {
        FakePorts ports = ports(capable());
        ports.globals.put(IoModeConfig.ON_UNSATISFIED, "fail");
        DiskPlan plan = IO_MODES.plan(START, ports);
        StartRefusal r = IO_MODES.startFailed(plan, zstackError(qemuClosed(DATA, "io_uring", QEMU_URING)), paths(), AT, ports);
        assertThat(r.disks()).singleElement().satisfies(d -> assertThat(d.next()).isNull());
        // nothing else changes: no refusal to remember, so the next start tries io_uring again
        assertThat(r.remember()).isEmpty();
        assertThat(r.refusal().sentence()).isEqualTo("volume data (vol-data) could not start with io_uring on host kvm1 (h1):"
                + " QEMU refused it (\"" + QEMU_URING + "\"), and vm.ioMode.onUnsatisfied is fail, so no other mode is tried"
                + " and nothing is remembered.");
        assertThat(r.refusal().whatToDo()).isEqualTo("Fix what QEMU names, choose another kvm/vm.ioMode for the volume or its"
                + " primary storage, or set kvm/vm.ioMode.onUnsatisfied to fallback.");
        DiskPlan next = IO_MODES.plan(START, ports);
        assertThat(next.refused()).isFalse();
        assertThat(next.disk("vol-data").set()).isEqualTo(IoMode.IO_URING);

        // a refusal remembered while onUnsatisfied was fallback refuses the next start before the host once it is fail
        ports.globals.remove(IoModeConfig.ON_UNSATISFIED);
        StartRefusal earlier = IO_MODES.startFailed(IO_MODES.plan(START, ports),
                zstackError(qemuClosed(DATA, "io_uring", QEMU_URING)), paths(), AT, ports);
        assertThat(earlier.remember()).hasSize(1);
        ports.globals.put(IoModeConfig.ON_UNSATISFIED, "fail");
        ports.host(capable().withRefused(earlier.remember()), AgentProfile.ZSTACK_STOCK);
        next = IO_MODES.plan(START, ports);
        assertThat(next.refused()).isTrue();
        assertThat(next.refusal().volumeUuid()).isEqualTo("vol-data");
        assertThat(next.refusal().sentence()).startsWith("volume data (vol-data) cannot run io_uring: check remembered-refusal"
                + " failed: QEMU refused io_uring for volume vol-data");
    }

    /** libvirt's validation names no disk: every disk that tried the mode is refused, each on its own storage. */
    @Test
    void libvirtsRefusalWithoutADiskRefusesEveryDiskThatTriedTheMode() {
        FakePorts ports = ports(capable());
        DiskPlan plan = IO_MODES.plan(START, ports);
        StartRefusal r = IO_MODES.startFailed(plan, zstackError("unsupported configuration: io uring is not supported by this"
                + " QEMU binary"), paths(), AT, ports);
        assertThat(r.disks()).extracting(StartRefusal.Disk::volumeUuid).containsExactly("vol-root", "vol-data");
        assertThat(r.disks()).allSatisfy(d -> {
            assertThat(d.by()).isEqualTo("libvirt");
            assertThat(d.refusalId()).isEqualTo("libvirt-io_uring-not-in-qemu");
            assertThat(d.next()).isEqualTo(IoMode.NATIVE);
        });
        assertThat(r.remember()).extracting(RefusedIoMode::getPrimaryStorageUuid).containsExactly("ps1", "ps2");
        assertThat(r.remember()).allSatisfy(f -> assertThat(f.getClearedBy()).containsExactly("admin", "versionChange"));
        assertThat(r.refusal().sentence()).endsWith("so the next start of the VM runs the volume with native; so did volume"
                + " vol-data (io_uring, next native).");
        // a libvirt or QEMU upgrade the probe reports clears a refusal of the build; the same versions do not
        HostIoFacts upgraded = HostIoFacts.builder("h1").qemu(Version.parse("8.2.2")).libvirt(Version.parse("9.0.0")).build();
        assertThat(r.remember()).allMatch(f -> f.clearedByProbe(upgraded));
        assertThat(r.remember()).noneMatch(f -> f.clearedByProbe(capable()));
        assertThat(r.remember().get(0).clearedByProbeSentence(upgraded)).isEqualTo("the refusal of io_uring on host h1 and"
                + " primary storage ps1 by libvirt (libvirt-io_uring-not-in-qemu, QEMU 7.2.0, libvirt 9.0.0) is cleared: the"
                + " host now runs QEMU 8.2.2 and libvirt 9.0.0");
    }

    /** The volume's own cache mode refused native: said so, nothing remembered on the host. */
    @Test
    void aRefusalOfTheVolumesOwnCacheModeIsSaidAndNotRemembered() {
        FakePorts ports = ports(capable()).override("vol-root", IoModeConfig.IO_MODE, "native");
        DiskPlan plan = IO_MODES.plan(START, ports);
        assertThat(plan.disk("vol-root").set()).isEqualTo(IoMode.NATIVE);
        StartRefusal r = IO_MODES.startFailed(plan, zstackError("unsupported configuration: io='native' needs either no disk"
                + " cache or directsync cache mode"), paths(), AT, ports);
        assertThat(r.disks()).singleElement().satisfies(d -> {
            assertThat(d.volumeUuid()).isEqualTo("vol-root");
            assertThat(d.next()).isNull();
        });
        assertThat(r.remember()).isEmpty();
        assertThat(r.refusal().sentence()).isEqualTo("volume root (vol-root) could not start with native on host kvm1 (h1):"
                + " libvirt refused it (\"io='native' needs either no disk cache or directsync cache mode\"): the volume's"
                + " cache mode does not open its image with O_DIRECT.");
    }

    @Test
    void aFailureWithoutTheirWordsIsNoIoModesRefusal() {
        FakePorts ports = ports(capable());
        DiskPlan plan = IO_MODES.plan(START, ports);
        StartRefusal r = IO_MODES.startFailed(plan, "failed to start vm[uuid:vm1 name:vm-1] on kvm host[uuid:h1, ip:10.0.0.11],"
                + " because No enough physical memory for guest", paths(), AT, ports);
        assertThat(r).isSameAs(StartRefusal.NONE);
        assertThat(r.recognised()).isFalse();
        assertThat(r.remember()).isEmpty();
        assertThat(IO_MODES.startFailed(plan, null, paths(), AT, ports).recognised()).isFalse();
    }

    /** A disk that did not try the refused mode is never blamed, even where the error names its image. */
    @Test
    void onlyADiskThatTriedTheModeIsBlamed() {
        FakePorts ports = ports(capable()).override("vol-root", IoModeConfig.IO_MODE, "threads");
        DiskPlan plan = IO_MODES.plan(START, ports);
        StartRefusal r = IO_MODES.startFailed(plan, zstackError(qemuClosed(ROOT, "io_uring", QEMU_URING)), paths(), AT, ports);
        assertThat(r.disks()).extracting(StartRefusal.Disk::volumeUuid).containsExactly("vol-data");
    }

    /** An image path is named only as a whole: data.qcow2.bak is not data.qcow2. */
    @Test
    void aPathIsNamedOnlyAsAWhole() {
        assertThat(RefusalRecognizer.names("\"filename\":\"/p/data.qcow2\",", "/p/data.qcow2")).isTrue();
        assertThat(RefusalRecognizer.names("-drive file=/p/data.qcow2,format=qcow2", "/p/data.qcow2")).isTrue();
        assertThat(RefusalRecognizer.names("Could not open '/p/data.qcow2': x", "/p/data.qcow2")).isTrue();
        assertThat(RefusalRecognizer.names("\"filename\":\"/p/data.qcow2.bak\",", "/p/data.qcow2")).isFalse();
        assertThat(RefusalRecognizer.names("anything", null)).isFalse();
        assertThat(RefusalRecognizer.excerpt("x: Unable to use io_uring: e\nnext line", 3)).isEqualTo("Unable to use io_uring: e");
    }

    /**
     * A block disk the start hook could not reach runs what ZStack's agent writes for it, io='native': a refusal of
     * native is recognised for it though the plan told the agent nothing.
     */
    @Test
    void aBlockDiskWithoutAModeTriedWhatZStacksAgentWrites() {
        FakePorts ports = new FakePorts().host(capable(), AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("vol-lv").storage("ps3", "SharedBlock").image("raw", "none").sizes(1L << 30, 1L << 30)
                        .cacheMode("none").unreachableAtStart("ZStack's agent writes no <serial> for this disk").build());
        DiskPlan plan = IO_MODES.plan(DiskRequest.start("vm1", H1, List.of("vol-lv")), ports);
        assertThat(plan.disk("vol-lv").set()).isNull();
        StartRefusal r = IO_MODES.startFailed(plan, zstackError(qemuClosed("/dev/vg/vol-lv", "native", "Unable to use native"
                + " AIO: failed to create linux AIO context: Resource temporarily unavailable")), Map.of("vol-lv", "/dev/vg/vol-lv"),
                AT, ports);
        assertThat(r.disks()).singleElement().satisfies(d -> {
            assertThat(d.refused()).isEqualTo(IoMode.NATIVE);
            assertThat(d.refusalId()).isEqualTo("qemu-native-no-aio-context");
        });
        assertThat(r.remember()).extracting(RefusedIoMode::getPrimaryStorageUuid).containsExactly("ps3");
    }
}
