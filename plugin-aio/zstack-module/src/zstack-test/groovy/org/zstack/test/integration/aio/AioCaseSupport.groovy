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

    /**
     * A PUT through ZStack's REST API as a script would send it, without the Java SDK (which trims string values
     * before sending): the API job is polled until it ends. The error's details, or null on success.
     */
    static String rawPut(String session, String path, String body) {
        def put = (HttpURLConnection) new URL("http://127.0.0.1:8989/v1/" + path).openConnection()
        put.requestMethod = "PUT"
        put.doOutput = true
        put.setRequestProperty("Content-Type", "application/json")
        put.setRequestProperty("Authorization", "OAuth " + session)
        put.outputStream.withWriter("UTF-8") { it << body }
        assert put.responseCode == 202: "PUT ${path}: ${put.responseCode}"
        String location = JSONObjectUtil.toObject(put.inputStream.getText("UTF-8"), LinkedHashMap.class).location
        for (int i = 0; i < 300; i++) {
            def get = (HttpURLConnection) new URL(location).openConnection()
            get.setRequestProperty("Authorization", "OAuth " + session)
            if (get.responseCode != 202) {
                def stream = get.responseCode < 400 ? get.inputStream : get.errorStream
                Map answer = JSONObjectUtil.toObject(stream.getText("UTF-8"), LinkedHashMap.class)
                return answer.error == null ? null : ((Map) answer.error).details
            }
            sleep(100)
        }
        throw new AssertionError("PUT ${path}: the API job did not end in 30 s")
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
