package org.zstack.aio.agent.api;

/** A domain's lifecycle event as an agent pushes it to a watching server (libvirt's event type, e.g. STOPPED). */
public record VmEventCmd(String vmUuid, String event) {
}
