package org.zstack.aio.plugin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link HostScript} on this machine the way a platform's channel runs it on a host: plainly ({@code sh -c}),
 * or the way ZStack 5.2.0's {@code KvmRunShellMsg} does ({@link #zstackRunShell}).
 */
public final class HostShell {

    /** What the host answered. */
    public record Result(int exit, String stdout, String stderr) {
    }

    private HostShell() {
    }

    /** {@code sh -c TEXT}. */
    public static Result sh(String text, Map<String, String> env) throws IOException, InterruptedException {
        return run(List.of("sh", "-c", text), env);
    }

    /**
     * What ZStack's {@code KVMHost.runShell} makes of a script ({@code utils/ssh/Ssh.java}, ScriptRunner(String) of
     * 5.2.0): the text pasted into an UNQUOTED here-document that writes a file, which {@code /bin/bash} then runs
     * under {@code timeout}; stdout and stderr answered as the reply's. The login shell (bash, as root on a KVM host)
     * is {@code bash -c} here.
     */
    public static Result zstackRunShell(String script, Path tmp, Map<String, String> env) throws IOException, InterruptedException {
        Path remote = tmp.resolve("zstack-script");
        Path out = tmp.resolve("zstack-stdout");
        Path err = tmp.resolve("zstack-stderr");
        String remoteScript = String.join("\n",
                "cat << EOF1 > " + remote,
                "PATH=/usr/local/bin:/bin:/usr/bin:/usr/local/sbin:/usr/sbin:/sbin",
                script,
                "EOF1",
                "timeout 300 /bin/bash " + remote + " 1>" + out + " 2>" + err,
                "ret=$?",
                "test -f " + out + " && cat " + out,
                "test -f " + err + " && cat " + err + " 1>&2",
                "rm -f " + remote,
                "rm -f " + out,
                "rm -f " + err,
                "exit $ret", "");
        return run(List.of("bash", "-c", remoteScript), env);
    }

    private static Result run(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (env != null) pb.environment().putAll(env);
        Path out = Files.createTempFile("aio-shell", ".out");
        Path err = Files.createTempFile("aio-shell", ".err");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the script did not end within 120 s: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
