package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The start hook run as ZStack's agent runs it: zstacklib's xmlhook.get_modified_xml_from_hook base64-decodes nothing
 * itself, parses the domain XML into {@code root} and {@code exec}s the script with its own locals ({@code root},
 * {@code hook}) as globals. The same is done here under every Python found (3 always, 2.7 when present, as the agent
 * runs on either); the ZStack cases run the real xmlhook.py on the XML vm_plugin.py writes.
 */
class XmlHookScriptTest {

    /** xmlhook.py's function, as it is (XmlHook's helpers are never called by the generated script). */
    private static final String XMLHOOK = String.join("\n",
            "import base64, sys",
            "import xml.etree.ElementTree as etree",
            "def get_modified_xml_from_hook(hook_code, input_xmlstr):",
            "    hook = object()",
            "    root = etree.fromstring(input_xmlstr)",
            "    exec(hook_code, locals())",
            "    return root",
            "root = get_modified_xml_from_hook(base64.b64decode(open(sys.argv[1]).read()), open(sys.argv[2]).read())",
            "for disk in root.iter('disk'):",
            "    serial = (disk.findtext('serial') or '-').strip()",
            "    sys.stdout.write(serial + '=' + (disk.find('driver').get('io') or '') + '\\n')",
            "sys.stdout.write('admin=' + (root.get('admin') or '') + '\\n')",
            "");

    /** What vm_plugin.py writes: a file disk without io, a block disk with io=native, a vhost-user disk without serial. */
    private static final String DOMAIN = "<domain type='kvm'><devices>"
            + "<disk type='file' device='disk'><driver name='qemu' type='qcow2' cache='none'/><serial>root0</serial></disk>"
            + "<disk type='block' device='disk'><driver name='qemu' type='raw' cache='none' io='native'/><serial>data1</serial></disk>"
            + "<disk type='vhostuser' device='disk'><driver name='qemu' type='raw'/></disk>"
            + "<disk type='file' device='disk'><driver name='qemu' type='qcow2' cache='none'/><serial>other</serial></disk>"
            + "</devices></domain>";

    @Test
    void eachDiskGetsItsModeByItsSerialAndOthersAreLeftAsWritten() throws Exception {
        Map<String, IoMode> modes = new LinkedHashMap<>();
        modes.put("root0", IoMode.IO_URING);
        modes.put("data1", IoMode.THREADS);
        for (String python : pythons()) {
            Map<String, String> disks = run(python, XmlHookScript.build(modes, null));
            assertThat(disks).as(python).containsEntry("root0", "io_uring").containsEntry("data1", "threads")
                    .containsEntry("-", "").containsEntry("other", "").containsEntry("admin", "");
        }
    }

    @Test
    void anAdminsHookRunsLastInTheSameScopeAndHasTheLastWord() throws Exception {
        String admin = "root.set('admin', 'saw hook' if hook is not None else 'no hook')\n"
                + "for d in root.iter('disk'):\n"
                + "    if d.findtext('serial') == 'data1': d.find('driver').set('io', 'native')\n";
        String b64 = Base64.getMimeEncoder().encodeToString(admin.getBytes(StandardCharsets.UTF_8)); // wrapped lines, as admins paste it
        Map<String, IoMode> modes = new LinkedHashMap<>();
        modes.put("root0", IoMode.IO_URING);
        modes.put("data1", IoMode.THREADS);
        for (String python : pythons()) {
            Map<String, String> disks = run(python, XmlHookScript.build(modes, b64));
            assertThat(disks).as(python).containsEntry("admin", "saw hook").containsEntry("data1", "native")
                    .containsEntry("root0", "io_uring");
        }
    }

    @Test
    void whatCannotBeAPythonLiteralOrBase64IsRefusedBeforeTheHost() {
        assertThatThrownBy(() -> XmlHookScript.build(java.util.Collections.singletonMap("x'; import os #", IoMode.NATIVE), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unexpected characters");
        assertThatThrownBy(() -> XmlHookScript.build(new LinkedHashMap<>(), "not base64 !"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A start's plan: the disk out of the hook's reach (no serial) is not in the script, the others are. */
    @Test
    void forAStartTheHookSetsWhatThePlanTellsTheAgentToSet() throws Exception {
        HostIoFacts host = HostIoFacts.builder("h1").kernel(Version.parse("6.1.0")).ioUringDisabled(0)
                .qemu(Version.parse("8.2.0")).qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build();
        FakePorts ports = new FakePorts().host(host, AgentProfile.ZSTACK_STOCK)
                .volume(VolumeIoFacts.builder("root0").storage("ps1", "LocalStorage").image("qcow2", "full")
                        .sizes(10L << 30, 10L << 30).cacheMode("none").kind(ZStackDeviceTypes.kind("file")).build())
                .volume(VolumeIoFacts.builder("vhost1").storage("ps1", "LocalStorage").image("raw", "full")
                        .sizes(10L << 30, 10L << 30).cacheMode("none").kind(ZStackDeviceTypes.kind("vhost"))
                        .unreachableAtStart(ZStackDeviceTypes.unreachableAtStart("vhost")).build())
                .override("ps1", IoModeConfig.IO_MODE, "io_uring");
        DiskPlan plan = new DiskIoModes(IoModeRulesLoader.fromClasspath())
                .plan(DiskRequest.start("vm", new HostRef("h1", "kvm"), Arrays.asList("root0", "vhost1")), ports);
        String script = new String(Base64.getDecoder().decode(XmlHookScript.forStart(plan, null)), StandardCharsets.UTF_8);
        assertThat(script).contains("aio_io_modes = {'root0': 'io_uring'}\n");
        for (String python : pythons()) {
            assertThat(run(python, XmlHookScript.forStart(plan, null))).as(python).containsEntry("root0", "io_uring")
                    .containsEntry("-", "");
        }
    }

    /** python3, and the agent's other Python, 2.7, when this machine has one (AIO_PYTHON2, PATH, pyenv). */
    private static List<String> pythons() throws Exception {
        List<String> out = new ArrayList<>();
        if (works("python3")) out.add("python3");
        // a machine without Python skips; CI may not (bin/aio-test's machines have it)
        if (!"true".equals(System.getenv("CI"))) assumeThat(out).as("python3 on PATH").isNotEmpty();
        assertThat(out).as("python3 on PATH").isNotEmpty();
        List<String> twos = new ArrayList<>(Arrays.asList(System.getenv("AIO_PYTHON2"), "python2.7", "python2"));
        Path pyenv = Path.of(System.getProperty("user.home"), ".pyenv", "versions");
        if (Files.isDirectory(pyenv)) {
            try (var versions = Files.list(pyenv)) {
                versions.filter(v -> v.getFileName().toString().startsWith("2.7")).sorted()
                        .forEach(v -> twos.add(v.resolve("bin/python2.7").toString()));
            }
        }
        for (String p : twos) {
            if (p != null && works(p)) {
                out.add(p);
                break;
            }
        }
        return out;
    }

    private static boolean works(String python) {
        try {
            Process p = new ProcessBuilder(python, "-c", "import xml.etree.ElementTree").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** serial ("-": none) -> its driver's io ("" when none), and "admin" -> what the admin's hook wrote. */
    private static Map<String, String> run(String python, String hookBase64) throws Exception {
        Path dir = Files.createTempDirectory("aio-hook");
        try {
            Path hook = Files.writeString(dir.resolve("hook.b64"), hookBase64);
            Path domain = Files.writeString(dir.resolve("domain.xml"), DOMAIN);
            Process p = new ProcessBuilder(python, "-c", XMLHOOK, hook.toString(), domain.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("%s ran the hook: %s", python, out).isZero();
            Map<String, String> disks = new LinkedHashMap<>();
            for (String line : out.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) disks.put(line.substring(0, eq), line.substring(eq + 1));
            }
            return disks;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(dir);
        }
    }
}
