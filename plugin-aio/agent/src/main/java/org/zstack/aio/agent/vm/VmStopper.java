package org.zstack.aio.agent.vm;

import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.util.Map;

/** Destroy + undefine. Idempotent: stopping a VM whose domain is gone succeeds (the server may retry). */
public final class VmStopper {

    private final LibvirtHost libvirt;

    public VmStopper(LibvirtHost libvirt) {
        this.libvirt = libvirt;
    }

    /** @return {"vmUuid": .., "existed": whether a domain was there to stop} */
    public Map<String, Object> stop(VmStopCmd cmd) {
        if (cmd.vmUuid() == null || !VmStarter.SAFE_NAME.matcher(cmd.vmUuid()).matches()) {
            throw AgentException.badCommand("bad vmUuid '" + cmd.vmUuid() + "'", "send the uuid of the VM to stop");
        }
        try {
            libvirt.requireOwnedOrAbsent(cmd.vmUuid(), "stop");
            boolean existed = libvirt.destroyAndUndefine(cmd.vmUuid());
            return Map.of("vmUuid", cmd.vmUuid(), "existed", existed);
        } catch (LibvirtException e) {
            throw AgentException.failed("libvirt could not stop VM " + cmd.vmUuid() + ": " + LibvirtHost.message(e),
                    "the domain may still run; retry the stop", e);
        }
    }
}
