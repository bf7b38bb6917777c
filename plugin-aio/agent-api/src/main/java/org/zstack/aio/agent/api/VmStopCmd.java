package org.zstack.aio.agent.api;

/** /vm/stop: destroy and undefine the domain. Stopping a VM that does not run succeeds. */
public record VmStopCmd(String vmUuid) {
}
