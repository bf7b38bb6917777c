package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * conf/aio/read-back.sh on this machine's libvirt and QEMU: a domain with one disk per io mode, started paused by the
 * system libvirtd (QEMU opens every disk at start), read back and compared with decisions; what the script reports
 * equals the aio QEMU was started with (its command line). Needs root and libvirtd; under CI=true a skip is a failure.
 */
class ReadBackScriptTest {

    private static final Path SCRIPT = Path.of("..", "..", "conf", "aio", "read-back.sh");
    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());

    private static void requireLibvirt() throws Exception {
        boolean ok = Shell.run(List.of("sh", "-c", "[ \"$(id -u)\" = 0 ] && command -v qemu-img && virsh -q -c qemu:///system"
                + " version"), null).exit() == 0;
        if ("true".equals(System.getenv("CI"))) assertThat(ok).as("root, qemu-img and the system libvirtd (CI=true)").isTrue();
        assumeThat(ok).as("root, qemu-img and the system libvirtd").isTrue();
    }

    private static String disk(Path image, String serial, String dev, String cache, String io) {
        return "<disk type='file' device='disk'><driver name='qemu' type='raw' cache='" + cache + "'"
               + (io == null ? "" : " io='" + io + "'") + "/><source file='" + image + "'/><target dev='" + dev + "' bus='virtio'/>"
               + "<serial>" + serial + "</serial></disk>";
    }

    private static DecisionRecord decided(String vol, String vm, String effective) {
        return new DecisionRecord(vol, vm, "h1", "start", effective, "VolumeVO", effective, false, Collections.emptyList(),
                "r", null, null, null, null, "2026-11-27T10:00:00.000Z");
    }

    @Test
    void eachDiskReadsBackAsQemuRunsIt(@TempDir Path dir) throws Exception {
        requireLibvirt();
        String name = "aio-i34-readback-" + UUID.randomUUID().toString().substring(0, 8);
        StringBuilder disks = new StringBuilder();
        String[][] spec = {{"vol-threads", "vda", "writeback", null}, {"vol-native", "vdb", "none", "native"},
                {"vol-uring", "vdc", "none", "io_uring"}};
        for (String[] s : spec) {
            Path img = dir.resolve(s[0] + ".img");
            assertThat(Shell.run(List.of("qemu-img", "create", "-q", "-f", "raw", img.toString(), "16M"), null).exit()).isZero();
            disks.append(disk(img, s[0], s[1], s[2], s[3]));
        }
        Path xml = dir.resolve("domain.xml");
        Files.writeString(xml, "<domain type='qemu'><name>" + name + "</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>"
                + "<os><type arch='x86_64'>hvm</type></os><devices>" + disks + "<memballoon model='none'/></devices></domain>");
        Shell.Result created = Shell.run(List.of("virsh", "-q", "-c", "qemu:///system", "create", xml.toString(), "--paused"), null);
        assertThat(created.exit()).as(created.err()).isZero();
        try {
            Shell.Result r = Shell.run(List.of("sh", SCRIPT.toString(), name), Map.of("AIO_VIRSH_URI", "qemu:///system"));
            assertThat(r.exit()).isZero();
            assertThat(r.out()).contains("--- aio domain " + name + " paused ---", "--- aio log " + name + " ---",
                    "starting up libvirt version");

            // what QEMU was started with: its command line, one -blockdev per disk
            String pid = Files.readString(Path.of("/run/libvirt/qemu/" + name + ".pid")).trim();
            String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
            assertThat(cmdline).containsPattern("vol-native\\.img[^}]*\"aio\":\"native\"")
                    .containsPattern("vol-uring\\.img[^}]*\"aio\":\"io_uring\"");
            assertThat(cmdline).doesNotContainPattern("vol-threads\\.img[^}]*\"aio\":\"(native|io_uring)\"");

            Map<String, List<String>> vms = new LinkedHashMap<>();
            vms.put(name, Arrays.asList("vol-threads", "vol-native", "vol-uring"));
            FakePorts ports = new FakePorts().host(HostIoFacts.unknown("h1", "not probed in this test"), AgentProfile.ZSTACK_STOCK);
            ports.stored.put("vol-threads", decided("vol-threads", name, "threads"));
            ports.stored.put("vol-native", decided("vol-native", name, "native"));
            ports.stored.put("vol-uring", decided("vol-uring", name, "io_uring"));
            ReadBackResult result = IO_MODES.readBack(ReadBackRequest.printed(new HostRef("h1", null), vms,
                    Collections.emptyMap(), r.out(), "2026-11-27T10:05:00.000Z"), ports);
            assertThat(result.unread()).isEmpty();
            assertThat(result.disagreements()).isEmpty();
            assertThat(result.records()).extracting(DecisionRecord::getRunningIo).containsExactly("threads", "native", "io_uring");
            assertThat(result.records()).extracting(DecisionRecord::getAppliedCache).containsExactly("writeback", "none", "none");

            // a decision the running disk does not follow is a disagreement
            ports.stored.put("vol-threads", decided("vol-threads", name, "io_uring"));
            ReadBackResult wrong = IO_MODES.readBack(ReadBackRequest.printed(new HostRef("h1", null), vms,
                    Collections.emptyMap(), r.out(), "2026-11-27T10:05:00.000Z"), ports);
            assertThat(wrong.disagreements()).singleElement().satisfies(d -> {
                assertThat(d.volumeUuid()).isEqualTo("vol-threads");
                assertThat(d.runs()).isEqualTo("threads");
            });

            // the log is the current run's only: a fallback warning of an earlier run does not count
            Path logs = Files.createDirectories(dir.resolve("logs"));
            Files.writeString(logs.resolve(name + ".log"), "2026-11-26 09:00:00.000+0000: starting up libvirt version: 9.0.0\n"
                    + "qemu: Unable to use linux io_uring, falling back to thread pool: failed to init linux io_uring ring\n"
                    + "2026-11-26 09:30:00.000+0000: shutting down, reason=destroyed\n"
                    + "2026-11-27 10:00:00.000+0000: starting up libvirt version: 9.0.0\nLC_ALL=C qemu-system-x86_64\n");
            Shell.Result cut = Shell.run(List.of("sh", SCRIPT.toString(), name), Map.of("AIO_VIRSH_URI", "qemu:///system",
                    "AIO_QEMU_LOG_DIR", logs.toString()));
            assertThat(cut.out()).contains("2026-11-27 10:00:00.000+0000: starting up").doesNotContain("falling back");
            ports.stored.put("vol-threads", decided("vol-threads", name, "threads"));
            assertThat(IO_MODES.readBack(ReadBackRequest.printed(new HostRef("h1", null), vms, Collections.emptyMap(), cut.out(),
                    "2026-11-27T10:05:00.000Z"), ports).disagreements()).isEmpty();
        } finally {
            Shell.run(List.of("virsh", "-q", "-c", "qemu:///system", "destroy", name), null);
        }
    }

    @Test
    void aDomainThatDoesNotExistIsSaidSo() throws Exception {
        requireLibvirt();
        Shell.Result r = Shell.run(List.of("sh", SCRIPT.toString(), "aio-i34-no-such-domain", "bad;name"),
                Map.of("AIO_VIRSH_URI", "qemu:///system"));
        assertThat(r.exit()).isZero();
        ReadBack rb = ReadBack.parse(r.out());
        assertThat(rb.domains()).isEmpty();
        assertThat(rb.error("aio-i34-no-such-domain")).contains("aio-i34-no-such-domain");
        assertThat(rb.error("bad;name")).isEqualTo("not a domain name this script reads");
    }
}
