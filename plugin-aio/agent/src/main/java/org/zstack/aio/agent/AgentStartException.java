package org.zstack.aio.agent;

/** The agent could not start: libvirt unreachable or the port taken. The message says which and what to do. */
public final class AgentStartException extends RuntimeException {

    public AgentStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
