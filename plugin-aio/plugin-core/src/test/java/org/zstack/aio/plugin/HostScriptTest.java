package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A script sent the way ZStack's KvmRunShellMsg sends it: the login shell runs ZStack's wrapper, which writes the script
 * through an unquoted here-document. The probe sent as it is does not survive that; {@link HostScript#command} does,
 * with its arguments, whatever they hold.
 */
class HostScriptTest {

    /**
     * ZStack 5.2.0's remote command for {@code Ssh.shell(script)} (utils/.../ssh/Ssh.java: {@code language} +
     * {@code ScriptRunner(String)}), with this test's file names; the SSH server hands it to the login shell.
     */
    private static String zstackRunShell(String script, Path dir) {
        return "LANG=\"en_US.UTF-8\"; cat << EOF1 > " + dir.resolve("remote") + "\n"
               + "PATH=/usr/local/bin:/bin:/usr/bin:/usr/local/sbin:/usr/sbin:/sbin\n"
               + script + "\n"
               + "EOF1\n"
               + "timeout 604800 /bin/bash " + dir.resolve("remote") + " 1>" + dir.resolve("o") + " 2>" + dir.resolve("e") + "\n"
               + "ret=$?\n"
               + "test -f " + dir.resolve("o") + " && cat " + dir.resolve("o") + "\n"
               + "test -f " + dir.resolve("e") + " && cat " + dir.resolve("e") + " 1>&2\n"
               + "rm -f " + dir.resolve("remote") + "\n"
               + "rm -f " + dir.resolve("o") + "\n"
               + "rm -f " + dir.resolve("e") + "\n"
               + "exit $ret";
    }

    private static final HostScript PROBE = HostScript.load(HostScript.PROBE, HostScriptTest.class.getClassLoader());

    @Test
    void theProbeSentAsItIsDoesNotSurviveZStacksHereDocument(@TempDir Path dir) throws Exception {
        Shell.Result r = Shell.run(Arrays.asList("bash", "-c", zstackRunShell(PROBE.text(), dir)), null);
        // the login shell expands $((...)) of an unset variable while writing the file, and gives up
        assertThat(r.exit()).isNotZero();
        assertThat(r.out()).doesNotContain("kernel=");
    }

    @Test
    void theWrappedProbeRunsAsWrittenWithItsArguments(@TempDir Path dir) throws Exception {
        // a path with every character a shell or here-document would touch
        Path odd = Files.createDirectories(dir.resolve("ps $HOME `id` 'q' \"d\" \\b"));
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("ps1", odd.toString());
        String cmd = PROBE.command(HostScript.probeArgs(paths));
        assertThat(cmd).matches("echo [A-Za-z0-9+/=]+ \\| base64 -d \\| sh");
        Shell.Result r = Shell.run(Arrays.asList("bash", "-c", zstackRunShell(cmd, dir)), null);
        assertThat(r.exit()).isZero();
        HostIoFacts f = HostIoProbe.read("h", r.out(), null, null, null).facts();
        assertThat(f.storage("ps1").getPath()).isEqualTo(odd.toString());
        assertThat(f.storage("ps1").getDirectIo()).isTrue();
        assertThat(f.getKernel()).isNotNull();
        assertThat(f.getProbes()).containsKeys("kernel.release", "aio.free", "process.seccomp");
        // nothing left behind under the storage path
        try (java.util.stream.Stream<Path> left = Files.list(odd)) {
            assertThat(left).isEmpty();
        }
    }

    /** A host has no conf/aio: the helpers the scripts source by hand travel inside each script sent. */
    @Test
    void eachScriptSentCarriesItsHelpers() throws Exception {
        for (String name : List.of(HostScript.PROBE, HostScript.READ_BACK)) {
            HostScript s = HostScript.load(name, getClass().getClassLoader());
            assertThat(s.text()).as(name).doesNotContain("host-lib.sh\"").contains("bounded() {", "oneline() {");
            assertThat(Files.readString(Path.of("..", "..", name))).as(name + " by hand").contains(". \"$(dirname \"$0\")/host-lib.sh\"");
        }
        // sent from a folder without host-lib.sh next to it, it still runs
        Shell.Result r = Shell.run(Arrays.asList("bash", "-c", "cd / && " + PROBE.command()), null);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("aio.free=", "process.seccomp=");
    }

    @Test
    void argumentsAreSingleQuotedWords() {
        assertThat(HostScript.quote("a'b")).isEqualTo("'a'\\''b'");
        assertThat(HostScript.probeArgs(Collections.singletonMap("ps-1_A", "/p q"))).containsExactly("ps-1_A=/p q");
        assertThatThrownBy(() -> HostScript.probeArgs(Collections.singletonMap("ps 1", "/p")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("not a primary storage uuid: 'ps 1'");
    }

    @Test
    void aMissingOrEmptyScriptIsRefused() {
        assertThatThrownBy(() -> HostScript.load("conf/aio/none.sh", HostScriptTest.class.getClassLoader()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("conf/aio/none.sh is not on the class path");
        assertThatThrownBy(() -> HostScript.of("x", " ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theScriptCannotReadItsOwnRestFromStdin(@TempDir Path dir) throws Exception {
        // a command that reads stdin would eat the rest of a script sh reads from a pipe, were it not one { } block
        HostScript s = HostScript.of("t", "cat\necho \"after=$1\"\n");
        Shell.Result r = Shell.run(Arrays.asList("bash", "-c", zstackRunShell(s.command(List.of("x")), dir)), null);
        assertThat(r.out()).isEqualTo("after=x\n");
    }
}
