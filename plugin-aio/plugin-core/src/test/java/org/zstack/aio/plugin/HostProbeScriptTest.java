package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.decision.Version;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * conf/aio/host-probe.sh, the one probe the ZStack module sends to each host, run for real on this machine and read by
 * {@link HostIoProbe}; and against a qemu-img that opens the image but falls back to threads (QEMU 8.2-10.1 without
 * io_uring), which must read as "no".
 */
class HostProbeScriptTest {

    private static final Path SCRIPT = Path.of("..", "..", "conf", "aio", "host-probe.sh");
    private static final Path PATCH = Path.of("..", "zstack-module", "kvmagent", "aio-hotplug-io-mode.patch");

    @Test
    void theProbeReportsThisHostAsItIs() throws Exception {
        boolean hasQemuImg = run(List.of("sh", "-c", "command -v qemu-img"), null).exit == 0;
        // bin/aio-test installs QEMU before the tests; a machine without it may skip, CI may not
        if (!"true".equals(System.getenv("CI"))) assumeThat(hasQemuImg).as("qemu-img on PATH").isTrue();
        Result r = run(List.of("sh", SCRIPT.toString()), null);
        assertThat(r.exit).isZero();
        String uname = run(List.of("uname", "-r"), null).out.trim();
        assertThat(r.out).contains("kernel=" + uname + "\n").contains("kernel.release=" + uname + "\n");
        HostIoProbe p = HostIoProbe.read("h", r.out, null, null, null);
        assertThat(p.facts().getKernel()).isEqualTo(Version.parse(uname).toString());
        assertThat(p.facts().getProbes().get("kernel.release")).isEqualTo(uname);
        Path sysctl = Path.of("/proc/sys/kernel/io_uring_disabled");
        if (Files.isReadable(sysctl)) {
            assertThat(p.facts().getIoUringDisabled()).isEqualTo(Integer.valueOf(Files.readString(sysctl).trim()));
        } else {
            assertThat(r.out).doesNotContain("io_uring_disabled=");
        }
        assertThat(p.facts().getQemu()).isNotNull();
        assertThat(p.facts().getQemuIoUring()).isNotNull();
        if (!p.facts().getQemuIoUring()) assertThat(r.out).contains("qemu_io_uring_reason=");
    }

    @Test
    void aQemuThatFallsBackToItsThreadPoolDoesNotCountAsIoUring(@TempDir Path bin) throws Exception {
        Path fake = bin.resolve("qemu-img");
        Files.writeString(fake, "#!/bin/sh\n"
                + "case \"$1\" in\n"
                + "  --version) echo 'qemu-img version 9.2.0' ;;\n"
                + "  create) : > \"$(eval echo \\${$#})\" ;;\n"
                + "  bench) echo 'qemu-img: warning: Unable to use linux io_uring, falling back to thread pool' >&2 ;;\n"
                + "esac\nexit 0\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Result r = run(List.of("sh", SCRIPT.toString()), Map.of("PATH", bin + ":" + System.getenv("PATH")));
        HostIoProbe p = HostIoProbe.read("h", r.out, null, null, null);
        assertThat(r.out).contains("qemu=9.2.0\n");
        assertThat(p.facts().getQemuIoUring()).isFalse();
        assertThat(r.out).contains("qemu_io_uring_reason=QEMU fell back to its thread pool");
    }

    /**
     * The patch's marker: a vm_plugin.py made of the patch's own lines reads as patched with its added lines and as
     * unpatched with the lines it replaces (and the lines around them), in ZStack's virtualenv layout.
     */
    @Test
    void theKvmagentPatchIsFoundByItsMarkerInTheInstalledAgent(@TempDir Path venv) throws Exception {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (String line : Files.readAllLines(PATCH)) {
            if (line.startsWith("---") || line.startsWith("+++") || line.startsWith("@@")) continue;
            if (!line.startsWith("+")) before.append(line.isEmpty() ? "" : line.substring(1)).append('\n');
            if (!line.startsWith("-")) after.append(line.isEmpty() ? "" : line.substring(1)).append('\n');
        }
        Path plugins = Files.createDirectories(venv.resolve("lib/python2.7/site-packages/kvmagent/plugins"));
        Map<String, String> env = Map.of("AIO_KVMAGENT_DIR", venv.toString());

        Result none = run(List.of("sh", SCRIPT.toString()), env);
        assertThat(HostIoProbe.read("h", none.out, null, null, null).kvmagentPatch()).isFalse();
        assertThat(none.out).contains("kvmagent_patch_reason=no kvmagent/plugins/vm_plugin.py under " + venv);

        Files.writeString(plugins.resolve("vm_plugin.py"), before.toString());
        Result stock = run(List.of("sh", SCRIPT.toString()), env);
        assertThat(HostIoProbe.read("h", stock.out, null, null, null).kvmagentPatch()).isFalse();
        assertThat(stock.out).contains("kvmagent_patch=no\nkvmagent_patch_reason=" + plugins.resolve("vm_plugin.py")
                + " does not read the aioIoMode addon\n");

        Files.writeString(plugins.resolve("vm_plugin.py"), after.toString());
        Result patched = run(List.of("sh", SCRIPT.toString()), env);
        HostIoProbe p = HostIoProbe.read("h", patched.out, null, null, null);
        assertThat(p.kvmagentPatch()).isTrue();
        assertThat(patched.out).contains("kvmagent_patch=yes\n").doesNotContain("kvmagent_patch_reason");
    }

    private static final DiskIoModes IO_MODES = new DiskIoModes(org.zstack.aio.decision.rules.IoModeRulesLoader.fromClasspath());

    /** Whether a real-component test may skip here: never under CI=true, where a skip is a failure. */
    private static void requires(boolean available, String what) {
        if ("true".equals(System.getenv("CI"))) assertThat(available).as(what + " (CI=true: a skip is a failure)").isTrue();
        assumeThat(available).as(what).isTrue();
    }

    /** The decision's failed known-bad checks for one disk asking {@code mode} on {@code ps1} of a probed host. */
    private static DecisionRecord decide(String probeOutput, String mode) {
        HostIoFacts facts = HostIoProbe.read("h1", probeOutput, null, null, null).facts();
        FakePorts ports = new FakePorts().host(facts, AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("root").storage("ps1", "LocalStorage").image("qcow2", "full")
                        .sizes(1L << 30, 1L << 30).cacheMode("none").build())
                .override("root", IoModeConfig.IO_MODE, mode);
        return IO_MODES.plan(DiskRequest.start("vm1", new HostRef("h1", null), java.util.Collections.singletonList("root")),
                ports).disk("root").record();
    }

    private static List<String> failed(DecisionRecord r) {
        return r.getChecks().stream().filter(c -> !c.isPassed()).map(DecisionRecord.CheckRecord::getCheck).toList();
    }

    /**
     * The seccomp-io_uring rule's host for real: the probe, and the qemu-img it starts, under a seccomp filter that
     * refuses io_uring_setup (as container runtimes' default profiles do). QEMU's own words say why io_uring is no.
     */
    @Test
    void underASeccompFilterThatRefusesIoUringSetupTheSeccompRuleFires(@TempDir Path dir) throws Exception {
        boolean tools = run(List.of("sh", "-c", "command -v python3 && command -v qemu-img && command -v perl"), null).exit == 0;
        requires(tools, "python3, perl and qemu-img on PATH");
        Path helper = Path.of(getClass().getClassLoader().getResource("no-io-uring.py").toURI());
        Result r = run(List.of("python3", helper.toString(), "sh", SCRIPT.toString(), "ps1=" + dir), null);
        assertThat(r.exit).as(r.out).isZero();
        assertThat(r.out).contains("io_uring.setup=EPERM\n", "process.seccomp=filter\n", "qemu_io_uring=no\n");
        // QEMU's refusal, in its own words (before 8.2: "Unable to use io_uring: failed to init linux io_uring ring")
        assertThat(r.out).containsPattern("qemu_io_uring_reason=.*io_uring");
        DecisionRecord d = decide(r.out, "io_uring");
        assertThat(failed(d)).contains("known-bad:seccomp-io_uring", "qemu-io_uring-support");
        assertThat(d.getEffective()).isEqualTo("native");
        // the same probe without the filter: io_uring passes every check on this host
        Result free = run(List.of("sh", SCRIPT.toString(), "ps1=" + dir), null);
        assertThat(free.out).contains("io_uring.setup=ok\n");
        assertThat(failed(decide(free.out, "io_uring"))).doesNotContain("known-bad:seccomp-io_uring");
    }

    /**
     * The loop-io_uring rule's host for real: an ext4 filesystem the test makes in a file, mounted through a loop
     * device, as the storage path. Needs root (losetup, mount); the device and mount are gone afterwards.
     */
    @Test
    void aFilesystemOnALoopDeviceMadeByTheTestIsLoopBacked(@TempDir Path dir) throws Exception {
        boolean root = run(List.of("sh", "-c", "[ \"$(id -u)\" = 0 ] && command -v losetup && command -v mkfs.ext4 && [ -e /dev/loop-control ]"), null).exit == 0;
        requires(root, "root with losetup, mkfs.ext4 and /dev/loop-control");
        Path image = dir.resolve("fs.img");
        Path mnt = java.nio.file.Files.createDirectories(dir.resolve("mnt"));
        assertThat(run(List.of("sh", "-c", "truncate -s 32M '" + image + "' && mkfs.ext4 -q -F '" + image + "'"), null).exit).isZero();
        Result loop = run(List.of("losetup", "-f", "--show", image.toString()), null);
        assertThat(loop.exit).as(loop.out).isZero();
        String dev = loop.out.trim();
        try {
            assertThat(run(List.of("mount", dev, mnt.toString()), null).exit).isZero();
            try {
                Result r = run(List.of("sh", SCRIPT.toString(), "ps1=" + mnt), null);
                assertThat(r.out).contains("storage.ps1.filesystem=ext4\n", "storage.ps1.loopBacked=yes\n",
                        "storage.ps1.directIo=yes\n");
                DecisionRecord d = decide(r.out, "io_uring");
                assertThat(failed(d)).contains("known-bad:loop-io_uring");
                assertThat(d.getEffective()).isNotEqualTo("io_uring");
                // the folder the mount sits in is on no loop device: the rule does not fire there
                Result outside = run(List.of("sh", SCRIPT.toString(), "ps1=" + dir), null);
                assertThat(outside.out).contains("storage.ps1.loopBacked=no\n");
                assertThat(failed(decide(outside.out, "io_uring"))).doesNotContain("known-bad:loop-io_uring");
            } finally {
                run(List.of("umount", mnt.toString()), null);
            }
        } finally {
            run(List.of("losetup", "-d", dev), null);
        }
    }

    /** A tool that hangs is left behind after 3 s, and the probe says so. */
    @Test
    void aHungQemuIsLeftBehindAndSaidSo(@TempDir Path bin) throws Exception {
        Path fake = bin.resolve("qemu-img");
        java.nio.file.Files.writeString(fake, "#!/bin/sh\ncase \"$1\" in --version) echo 'qemu-img version 9.2.0' ;;"
                + " create) : > \"$(eval echo \\${$#})\" ;; bench) sleep 60 ;; esac\nexit 0\n");
        java.nio.file.Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        long t0 = System.nanoTime();
        Result r = run(List.of("sh", SCRIPT.toString()), Map.of("PATH", bin + ":" + System.getenv("PATH")));
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertThat(r.out).contains("qemu_io_uring=no\nqemu_io_uring_reason=did not finish within 3 s\n",
                "qemu_native=no\nqemu_native_reason=did not finish within 3 s\n");
        // two benches abandoned after 3 s each, and nothing else waited on
        assertThat(seconds).isLessThan(15);
        HostIoFacts f = HostIoProbe.read("h", r.out, null, null, null).facts();
        assertThat(f.getQemuIoUring()).isFalse();
        assertThat(f.getUnknown()).anySatisfy(u -> assertThat(u).startsWith("qemu.linux-aio is unknown: qemu-img refused"
                + " aio=native for another reason than its build: did not finish within 3 s"));
    }

    private record Result(int exit, String out) {
    }

    private static Result run(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (env != null) pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
