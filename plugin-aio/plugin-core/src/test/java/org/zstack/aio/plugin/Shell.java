package org.zstack.aio.plugin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs a command for a test: its stdout (stderr apart), its exit status; never longer than 90 s. */
final class Shell {

    record Result(int exit, String out, String err) {
    }

    private Shell() {
    }

    static Result run(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (env != null) pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        // stderr on its own thread: a full pipe would stall the command
        StringBuilder err = new StringBuilder();
        Thread t = new Thread(() -> {
            try {
                err.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the command's exit says enough
            }
        });
        t.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("%s finished within 90 s", cmd).isTrue();
        t.join();
        return new Result(p.exitValue(), out, err.toString());
    }
}
