package org.zstack.aio.agent.api;

/** Cancel the running benchmark; {@code path} null cancels whichever runs. */
public record HostBenchCancelCmd(String path) {
}
