package org.zstack.aio.agent.process;

import java.util.List;

/**
 * The outcome of one external command. A command that could not even start (tool not installed) is a result
 * too, with exit code -1 and the reason in stderr, so callers report a fact instead of crashing.
 */
public record ProcessResult(List<String> command, int exitCode, String stdout, String stderr) {

    public boolean ok() {
        return exitCode == 0;
    }

    /** The most useful one-line-ish explanation of a failure: stderr, else stdout, else the exit code. */
    public String errorText() {
        if (stderr != null && !stderr.isBlank()) {
            return stderr.strip();
        }
        if (stdout != null && !stdout.isBlank()) {
            return stdout.strip();
        }
        return String.join(" ", command) + " exited with " + exitCode;
    }
}
