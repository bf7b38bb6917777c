package org.zstack.aio.agent.api;

/** The body of every non-2xx agent answer: 400 for a bad command, 500 when libvirt/QEMU/qemu-img failed. */
public record AgentError(String error, String details) {
}
