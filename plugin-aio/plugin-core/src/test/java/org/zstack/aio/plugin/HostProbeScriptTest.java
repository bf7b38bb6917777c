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
