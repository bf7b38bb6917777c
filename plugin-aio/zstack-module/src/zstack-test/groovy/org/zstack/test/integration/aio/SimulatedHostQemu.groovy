package org.zstack.test.integration.aio

import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMConstant
import org.zstack.testlib.EnvSpec

/**
 * The QEMU a simulated host's agent reports (at connect, /host/fact: qemu-img's version tag and the qemu-kvm version
 * ZStack keeps in KvmHypervisorInfoVO; and whenever ZStack asks, GET_VIRTUALIZER_INFO_PATH), so that ZStack's own
 * record says what the probe's {@code qemu=} line says, as on a real host. Without it the simulator reports 4.2.0.
 */
class SimulatedHostQemu {
    /** {@code version} (e.g. "8.2.2") answered from now on, as the agent prints it. */
    static void reports(EnvSpec env, Closure<String> version) {
        env.afterSimulator(KVMConstant.KVM_HOST_FACT_PATH) { KVMAgentCommands.HostFactResponse rsp, e ->
            String v = version()
            rsp.qemuImgVersion = v
            if (rsp.virtualizerInfo != null) rsp.virtualizerInfo.version = v + "-1.el9"
            return rsp
        }
        env.afterSimulator(KVMConstant.GET_VIRTUALIZER_INFO_PATH) { rsp, e ->
            if (rsp.hostInfo != null) rsp.hostInfo.version = version() + "-1.el9"
            return rsp
        }
    }
}
