package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The read-back compared with the stored decisions: libvirt's live domain XML ({@code virsh dumpxml}, here as libvirt
 * 9.0 writes a VM ZStack's agent started) and the VM's QEMU log, in their standard formats, as conf/aio/read-back.sh
 * prints them.
 */
class ReadBackTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    private static final HostRef H1 = new HostRef("h1", "kvm1");
    private static final String AT = "2026-11-27T10:05:00.000Z";
    private static final String ROOT_PATH = "/zstack_ps/rootVolumes/acct-1/vol-root/root.qcow2";
    private static final String DATA_PATH = "/mnt/nfs/dataVolumes/acct-1/vol-data/data.qcow2";

    /** A running ZStack VM's live XML: root (io_uring), data (native), an ISO without serial, a Ceph disk. */
    static String domainXml(String rootIo, String dataIo) {
        return "<domain type='kvm' id='7'>\n"
               + "  <name>vm1</name>\n"
               + "  <uuid>0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0</uuid>\n"
               + "  <devices>\n"
               + "    <emulator>/usr/libexec/qemu-kvm</emulator>\n"
               + "    <disk type='file' device='disk'>\n"
               + "      <driver name='qemu' type='qcow2' cache='none'" + (rootIo == null ? "" : " io='" + rootIo + "'")
               + " discard='unmap'/>\n"
               + "      <source file='" + ROOT_PATH + "' index='3'/>\n"
               + "      <backingStore/>\n"
               + "      <target dev='vda' bus='virtio'/>\n"
               + "      <serial>vol-root</serial>\n"
               + "      <boot order='1'/>\n"
               + "      <alias name='virtio-disk0'/>\n"
               + "      <address type='pci' domain='0x0000' bus='0x00' slot='0x05' function='0x0'/>\n"
               + "    </disk>\n"
               + "    <disk type='file' device='disk'>\n"
               + "      <driver name='qemu' type='qcow2' cache='none'" + (dataIo == null ? "" : " io='" + dataIo + "'") + "/>\n"
               + "      <source file='" + DATA_PATH + "' index='2'/>\n"
               + "      <target dev='vdb' bus='virtio'/>\n"
               + "      <serial>vol-data</serial>\n"
               + "      <alias name='virtio-disk1'/>\n"
               + "    </disk>\n"
               + "    <disk type='file' device='cdrom'>\n"
               + "      <driver name='qemu' type='raw'/>\n"
               + "      <source file='/zstack_bs/iso/centos.iso' index='1'/>\n"
               + "      <target dev='hdc' bus='ide'/>\n"
               + "      <readonly/>\n"
               + "    </disk>\n"
               + "    <disk type='network' device='disk'>\n"
               + "      <driver name='qemu' type='raw' cache='none'/>\n"
               + "      <source protocol='rbd' name='pool/vol-ceph'/>\n"
               + "      <target dev='vdc' bus='virtio'/>\n"
               + "      <serial>vol-ceph</serial>\n"
               + "    </disk>\n"
               + "  </devices>\n"
               + "</domain>\n";
    }

    /** The VM's log since its last start, as libvirt 9.0 and QEMU write it, with QEMU's own lines appended. */
    static String log(String... qemuLines) {
        StringBuilder s = new StringBuilder("2026-11-27 10:00:01.069+0000: starting up libvirt version: 9.0.0, package:"
                + " 9.0.0-4+deb12u2 (Debian), qemu version: 8.2.2, kernel: 6.1.0, hostname: kvm1\nLC_ALL=C \\\n"
                + "/usr/libexec/qemu-kvm \\\n-name guest=vm1,debug-threads=on \\\n-blockdev '{\"driver\":\"file\",\"filename\":\""
                + ROOT_PATH + "\",\"aio\":\"io_uring\"}' \\\n-msg timestamp=on\n");
        for (String l : qemuLines) s.append(l).append('\n');
        return s.toString();
    }

    static String printed(String xml, String log) {
        return "--- aio domain vm1 running ---\n" + xml + "--- aio log vm1 ---\n" + log + "\n--- aio end ---\n";
    }

    private static DecisionRecord decided(String vol, String effective) {
        return new DecisionRecord(vol, "vm1", "h1", "start", effective, "VolumeVO", effective, false, Collections.emptyList(),
                effective + " requested (VolumeVO) and all its checks passed.", null, null, null, null,
                "2026-11-27T10:00:00.000Z");
    }

    private static FakePorts ports(String rootDecided, String dataDecided) {
        FakePorts p = new FakePorts().host(HostIoFacts.builder("h1").qemu(Version.parse("8.2.2")).build(), AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("vol-root").name("root").storage("ps1", "LocalStorage").build())
                .volume(VolumeIoFacts.builder("vol-data").name("data").storage("ps2", "NFS").build())
                .volume(VolumeIoFacts.builder("vol-ceph").name("ceph").storage("ps3", "Ceph").build());
        p.stored.put("vol-root", decided("vol-root", rootDecided));
        p.stored.put("vol-data", decided("vol-data", dataDecided));
        p.stored.put("vol-ceph", new DecisionRecord("vol-ceph", "vm1", "h1", "start", "threads", "global", "not-applicable",
                false, Collections.emptyList(), "r", null, null, null, null, "2026-11-27T10:00:00.000Z"));
        return p;
    }

    private static Map<String, List<String>> vm1() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("vm1", Arrays.asList("vol-root", "vol-data", "vol-ceph"));
        return m;
    }

    private static ReadBackResult readBack(String output, FakePorts ports) {
        return IO_MODES.readBack(ReadBackRequest.printed(H1, vm1(), Collections.emptyMap(), output, AT), ports);
    }

    private static DecisionRecord record(ReadBackResult r, String vol) {
        return r.records().stream().filter(x -> x.getVolumeUuid().equals(vol)).findFirst().orElseThrow();
    }

    @Test
    void disksRunningTheirDecisionsAgreeAndTheirRecordsSayWhatTheyRunAndWhen() {
        ReadBackResult r = readBack(printed(domainXml("io_uring", "native"), log()), ports("io_uring", "native"));
        assertThat(r.disagreements()).isEmpty();
        assertThat(r.unread()).isEmpty();
        assertThat(r.records()).extracting(DecisionRecord::getVolumeUuid).containsExactly("vol-root", "vol-data", "vol-ceph");
        DecisionRecord root = record(r, "vol-root");
        assertThat(root.getRunningIo()).isEqualTo("io_uring");
        assertThat(root.getAppliedIo()).isEqualTo("io_uring");
        assertThat(root.getAppliedCache()).isEqualTo("none");
        assertThat(root.getReadBackAt()).isEqualTo(AT);
        assertThat(root.getDisagreement()).isNull();
        // a read-back decides nothing: the decision and its date stay
        assertThat(root.getEffective()).isEqualTo("io_uring");
        assertThat(root.getDecidedAt()).isEqualTo("2026-11-27T10:00:00.000Z");
        assertThat(record(r, "vol-data").getRunningIo()).isEqualTo("native");
        assertThat(record(r, "vol-ceph").getRunningIo()).isEqualTo("not-applicable");
    }

    /** QEMU 8.2-10.1 open an io_uring disk on a host that cannot set up a ring, warning only in the VM's log. */
    @Test
    void qemusFallbackInTheLogIsWhatTheDiskRuns() {
        String warning = "2026-11-27T10:00:02.345678Z qemu-kvm: Unable to use linux io_uring, falling back to thread pool:"
                         + " failed to init linux io_uring ring: Operation not permitted";
        ReadBackResult r = readBack(printed(domainXml("io_uring", "native"), log(warning)), ports("io_uring", "native"));
        assertThat(r.disagreements()).singleElement().satisfies(d -> {
            assertThat(d.volumeUuid()).isEqualTo("vol-root");
            assertThat(d.vmUuid()).isEqualTo("vm1");
            assertThat(d.hostUuid()).isEqualTo("h1");
            assertThat(d.decided()).isEqualTo("io_uring");
            assertThat(d.runs()).isEqualTo("threads");
            assertThat(d.sentence()).isEqualTo("volume root (vol-root) of VM vm1 on host kvm1 (h1) runs threads, not the"
                    + " io_uring its decision says: QEMU wrote \"Unable to use linux io_uring, falling back to thread pool:"
                    + " failed to init linux io_uring ring: Operation not permitted\" in the VM's log since its start.");
        });
        DecisionRecord root = record(r, "vol-root");
        assertThat(root.getRunningIo()).isEqualTo("threads");
        assertThat(root.getAppliedIo()).isEqualTo("io_uring"); // what QEMU was told
        assertThat(root.getDisagreement()).isEqualTo(r.disagreements().get(0).sentence());
        // the native disk is not touched by an io_uring warning
        assertThat(record(r, "vol-data").getDisagreement()).isNull();
    }

    @Test
    void aDiskTheHookMissedRunsQemusThreads() {
        ReadBackResult r = readBack(printed(domainXml("io_uring", null), log()), ports("io_uring", "native"));
        assertThat(r.disagreements()).singleElement().satisfies(d -> {
            assertThat(d.volumeUuid()).isEqualTo("vol-data");
            assertThat(d.runs()).isEqualTo("threads");
            assertThat(d.sentence()).isEqualTo("volume data (vol-data) of VM vm1 on host kvm1 (h1) runs threads, not the native"
                    + " its decision says: its <driver> in the running domain has no io attribute (QEMU's thread pool), so"
                    + " what applies the decision did not set it.");
        });
        assertThat(record(r, "vol-data").getAppliedIo()).isNull();
    }

    @Test
    void aDiskWithAnotherModeAndADiskThatIsNotThereDisagree() {
        String xml = domainXml("native", "native").replace("<serial>vol-data</serial>", "");
        ReadBackResult r = readBack(printed(xml, log()), ports("io_uring", "native"));
        assertThat(r.disagreements()).extracting(ReadBackResult.Disagreement::sentence).containsExactly(
                "volume root (vol-root) of VM vm1 on host kvm1 (h1) runs native, not the io_uring its decision says: its"
                + " <driver> in the running domain has io='native'.",
                "volume data (vol-data) of VM vm1 on host kvm1 (h1) has no disk in the running domain (no <serial>vol-data"
                + "</serial>), so what it runs is unknown.");
        assertThat(record(r, "vol-data").getRunningIo()).isNull();
        // the platform that knows the image path finds the disk without its serial
        ReadBackResult byPath = IO_MODES.readBack(ReadBackRequest.printed(H1, vm1(), Map.of("vol-data", DATA_PATH),
                printed(xml, log()), AT), ports("io_uring", "native"));
        assertThat(record(byPath, "vol-data").getRunningIo()).isEqualTo("native");
        assertThat(record(byPath, "vol-data").getDisagreement()).isNull();
    }

    @Test
    void aVmThatCouldNotBeReadKeepsItsRecordsAndSaysWhy() {
        FakePorts p = ports("io_uring", "native");
        ReadBackResult stopped = readBack("--- aio domain vm1 shut-off ---\n" + domainXml("io_uring", "native")
                + "--- aio end ---\n", p);
        assertThat(stopped.records()).isEmpty();
        assertThat(stopped.unread()).containsExactly("VM vm1 on host kvm1 (h1) was not read back: its domain is shut-off.");
        ReadBackResult missing = readBack("--- aio error vm1: error: failed to get domain 'vm1' ---\n--- aio end ---\n", p);
        assertThat(missing.unread()).containsExactly("VM vm1 on host kvm1 (h1) was not read back: error: failed to get domain"
                + " 'vm1'.");
        ReadBackResult silent = readBack("Last login: Thu Nov 27\n", p);
        assertThat(silent.unread()).containsExactly("VM vm1 on host kvm1 (h1) was not read back: the read-back printed nothing"
                + " for it.");
        ReadBackResult failed = IO_MODES.readBack(ReadBackRequest.failed(H1, vm1(), "unable to connect to KVM[ip:10.0.0.11]",
                AT), p);
        assertThat(failed.records()).isEmpty();
        assertThat(failed.unread()).containsExactly("VM vm1 on host kvm1 (h1) was not read back: unable to connect to"
                + " KVM[ip:10.0.0.11].");
        ReadBackResult garbled = readBack("--- aio domain vm1 running ---\n<domain><devices>\n--- aio end ---\n", p);
        assertThat(garbled.unread()).singleElement().satisfies(u -> assertThat(u).startsWith("VM vm1 on host kvm1 (h1) was not"
                + " read back: its domain XML does not parse"));
    }

    /** The XML comes from a host: no DTD, so no entity can read a file of the management node. */
    @Test
    void aDomainXmlWithADoctypeIsRefused() {
        String xxe = "<?xml version='1.0'?><!DOCTYPE domain [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
                     + "<domain><devices><disk type='file' device='disk'><serial>&x;</serial></disk></devices></domain>";
        assertThatThrownBy(() -> ReadBack.RunningDisk.parse(xxe)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DOCTYPE");
        assertThatThrownBy(() -> ReadBack.RunningDisk.parse("<network/>")).hasMessage("not a domain XML: <network>");
    }

    /** A disk running a mode as libvirt's QEMU opened it clears a refusal of that mode on its host × storage. */
    @Test
    void aDiskRunningARememberedModeClearsTheRefusalsThatAReadBackClears() {
        RefusedIoMode ring = new RefusedIoMode("h1", "ps1", "io_uring", "qemu-io_uring-ring-init", "QEMU", "Unable to use"
                + " io_uring: failed to init linux io_uring ring", "vol-x", "vm0", "2026-11-20T00:00:00.000Z", "8.2.2", "9.0.0",
                List.of("admin", "readBack"));
        RefusedIoMode build = new RefusedIoMode("h1", "ps1", "io_uring", "libvirt-io_uring-not-in-qemu", "libvirt", "io uring"
                + " is not supported by this QEMU binary", "vol-x", "vm0", "2026-11-20T00:00:00.000Z", "8.2.2", "9.0.0",
                List.of("admin", "versionChange"));
        RefusedIoMode other = new RefusedIoMode("h1", "ps2", "io_uring", "qemu-io_uring-ring-init", "QEMU", "w", "vol-y", "vm0",
                "2026-11-20T00:00:00.000Z", "8.2.2", "9.0.0", List.of("admin", "readBack"));
        FakePorts p = ports("io_uring", "native");
        p.host(HostIoFacts.builder("h1").qemu(Version.parse("8.2.2")).build().withRefused(List.of(ring, build, other)),
                AgentProfile.ZSTACK_STOCK);
        ReadBackResult r = readBack(printed(domainXml("io_uring", "native"), log()), p);
        assertThat(r.cleared()).containsExactly(ring);
        assertThat(r.clearedSentences()).containsExactly("the refusal of io_uring on host h1 and primary storage ps1 by QEMU"
                + " (qemu-io_uring-ring-init, 2026-11-20T00:00:00.000Z) is cleared: volume root (vol-root) of VM vm1 on host"
                + " kvm1 (h1) runs io_uring as libvirt's QEMU opened it");
        // a disk that fell back to threads proves nothing
        ReadBackResult fell = readBack(printed(domainXml("io_uring", "native"), log("qemu-kvm: Unable to use linux io_uring,"
                + " falling back to thread pool: x")), p);
        assertThat(fell.cleared()).isEmpty();
    }

    @Test
    void theScriptsSectionsAreReadPerDomain() {
        ReadBack rb = ReadBack.parse("banner\n--- aio domain vm1 running ---\n<domain/>\n--- aio log vm1 ---\nline1\n"
                + "--- aio domain vm2 paused ---\n<domain/>\n--- aio error vm3: error: failed to get domain 'vm3' ---\n"
                + "--- aio end ---\n");
        assertThat(rb.domains().keySet()).containsExactly("vm1", "vm2");
        assertThat(rb.domain("vm1").log()).isEqualTo("line1\n");
        assertThat(rb.domain("vm2").running()).isTrue();
        assertThat(rb.domain("vm2").log()).isNull();
        assertThat(rb.error("vm3")).isEqualTo("error: failed to get domain 'vm3'");
        assertThat(rb.domain("vm1").disks()).isEmpty();
        assertThat(ReadBack.RunningDisk.parse(domainXml(null, "io_uring"))).extracting(ReadBack.RunningDisk::serial)
                .containsExactly("vol-root", "vol-data", null, "vol-ceph");
        assertThat(ReadBack.RunningDisk.parse(domainXml(null, "io_uring")).get(3).source()).isEqualTo("pool/vol-ceph");
        assertThat(IoMode.fromWireOrNull(ReadBack.RunningDisk.parse(domainXml(null, "io_uring")).get(1).io()))
                .isEqualTo(IoMode.IO_URING);
    }
}
