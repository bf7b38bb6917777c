package org.zstack.aio.agent.http;

/**
 * A command the agent answers with an error: 400 when the command itself is wrong (the caller must change it),
 * 500 when libvirt, QEMU or qemu-img failed on a valid command. Carries the two sentences of AgentError.
 */
public final class AgentException extends RuntimeException {

    private final int status;
    private final String details;

    private AgentException(int status, String error, String details, Throwable cause) {
        super(error, cause);
        this.status = status;
        this.details = details;
    }

    public static AgentException badCommand(String error, String details) {
        return new AgentException(400, error, details, null);
    }

    /** 409: the host is busy with something the command must not run alongside (a VM start, a benchmark). */
    public static AgentException conflict(String error, String details) {
        return new AgentException(409, error, details, null);
    }

    /** 403: the agent will not do this for anyone (outside its storage, a domain it did not create). */
    public static AgentException forbidden(String error, String details) {
        return new AgentException(403, error, details, null);
    }

    public static AgentException failed(String error, String details) {
        return new AgentException(500, error, details, null);
    }

    public static AgentException failed(String error, String details, Throwable cause) {
        return new AgentException(500, error, details, cause);
    }

    public int status() {
        return status;
    }

    public String details() {
        return details;
    }
}
