package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMConstant
import org.zstack.sdk.UpdateGlobalConfigAction
import org.zstack.sdk.UpdateResourceConfigAction
import org.zstack.testlib.EnvSpec
import org.zstack.testlib.SpringSpec
import org.zstack.testlib.Test
import org.zstack.utils.gson.JSONObjectUtil

/** What the plugin-aio cases share: the Spring set (ZStack's KVM set plus the module) and REST helpers. */
class AioCaseSupport {
    /** ZStack's KVM set of components (as its KvmTest uses) plus the module, plus any test-only Spring files. */
    static SpringSpec spring(String... extraXml) {
        return Test.makeSpring {
            sftpBackupStorage()
            localStorage()
            nfsPrimaryStorage()
            smp()
            virtualRouter()
            flatNetwork()
            securityGroup()
            kvm()
            ceph()
            vyos()
            eip()
            lb()
            portForwarding()
            include("LongJobManager.xml")
            include("HostAllocateExtension.xml")
            include("AioIoMode.xml")
            extraXml.each { include(it) }
        }
    }

    /** UpdateResourceConfig through ZStack's REST API; the error (null on success). */
    static org.zstack.sdk.ErrorCode setResourceConfig(String session, String category, String name, String resourceUuid, String value) {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction()
        a.category = category
        a.name = name
        a.resourceUuid = resourceUuid
        a.value = value
        a.sessionId = session
        return a.call().error
    }

    /** UpdateGlobalConfig through ZStack's REST API; the error (null on success). */
    static org.zstack.sdk.ErrorCode setGlobalConfig(String session, String category, String name, String value) {
        UpdateGlobalConfigAction a = new UpdateGlobalConfigAction()
        a.category = category
        a.name = name
        a.value = value
        a.sessionId = session
        return a.call().error
    }

    /**
     * The stored decision, read through the module's API with the module's Java SDK action
     * (org.zstack.sdk.GetVolumeIoModeDecisionAction). The module's jars join the test classpath only at run time
     * (-Dmaven.test.additionalClasspath), after ZStack's test sources are compiled, so its classes are used by name.
     */
    static def decision(String session, String volumeUuid) {
        def a = sdk("GetVolumeIoModeDecisionAction")
        a.volumeUuid = volumeUuid
        a.sessionId = session
        def r = a.call()
        assert r.error == null: "GetVolumeIoModeDecision(${volumeUuid}) failed: ${r.error}"
        return r.value.inventory
    }

    static def sdk(String simpleName) {
        return Class.forName("org.zstack.sdk." + simpleName).newInstance()
    }

    /** Records the next StartVmCmd the KVM simulator receives. */
    static List<KVMAgentCommands.StartVmCmd> recordStarts(EnvSpec env) {
        List<KVMAgentCommands.StartVmCmd> cmds = Collections.synchronizedList([])
        env.afterSimulator(KVMConstant.KVM_START_VM_PATH) { rsp, HttpEntity<String> e ->
            cmds.add(JSONObjectUtil.toObject(e.body, KVMAgentCommands.StartVmCmd.class))
            return rsp
        }
        return cmds
    }

    static List<KVMAgentCommands.AttachDataVolumeCmd> recordAttaches(EnvSpec env) {
        List<KVMAgentCommands.AttachDataVolumeCmd> cmds = Collections.synchronizedList([])
        env.afterSimulator(KVMConstant.KVM_ATTACH_VOLUME) { rsp, HttpEntity<String> e ->
            cmds.add(JSONObjectUtil.toObject(e.body, KVMAgentCommands.AttachDataVolumeCmd.class))
            return rsp
        }
        return cmds
    }
}
