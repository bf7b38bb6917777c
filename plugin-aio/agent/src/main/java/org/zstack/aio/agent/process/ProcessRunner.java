package org.zstack.aio.agent.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a tool with an argument list (never through a shell, so paths with spaces or quotes are safe) and
 * captures both streams. Both are drained concurrently because a tool that fills one pipe while we block on
 * the other would hang forever.
 */
public final class ProcessRunner {

    private final Duration timeout;

    public ProcessRunner(Duration timeout) {
        this.timeout = timeout;
    }

    public ProcessResult run(List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command).start();
            process.getOutputStream().close(); // tools read no input; an open stdin could make one wait
        } catch (IOException e) {
            return new ProcessResult(command, -1, "", "cannot run " + command.get(0) + ": " + e.getMessage());
        }
        CompletableFuture<String> out = drain(process.getInputStream());
        CompletableFuture<String> err = drain(process.getErrorStream());
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new ProcessResult(command, -1, join(out), String.join(" ", command)
                        + " timed out after " + timeout.toSeconds() + " s");
            }
            return new ProcessResult(command, process.exitValue(), join(out), join(err));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return new ProcessResult(command, -1, "", "interrupted while running " + command.get(0));
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(new UncheckedIOException(e));
            }
        }, "aio-agent-process-drain");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static String join(CompletableFuture<String> f) throws InterruptedException {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return "";
        }
    }
}
