package org.zstack.aio.agent.api;

/**
 * Asks an agent for its domains ({@link AgentPaths#VM_LIST}); an empty body, {@code {}} or a null field: no counters.
 *
 * @param blockStats also read every running disk's block counters (one libvirt call for all domains)
 */
public record VmListCmd(Boolean blockStats) {

    public boolean wantsBlockStats() {
        return Boolean.TRUE.equals(blockStats);
    }
}
