package org.zstack.aio.agent.api;

/**
 * /vm/watch: push this agent's domain lifecycle events to {@code callbackUrl} (POST {@link VmEventCmd}) for the next
 * minute; the server's host tracker repeats it at every ping, so a management node that stops is dropped.
 */
public record VmWatchCmd(String callbackUrl) {
}
