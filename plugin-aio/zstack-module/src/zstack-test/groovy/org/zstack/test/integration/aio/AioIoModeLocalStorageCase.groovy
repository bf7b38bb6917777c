package org.zstack.test.integration.aio

import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.kvm.KVMAgentCommands
import org.zstack.sdk.ErrorCode
import org.zstack.sdk.StartVmInstanceAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

/**
 * plugin-aio on LocalStorage: configs set through ZStack's REST API at the three levels (global, primary storage,
 * volume), each disk decided at VM start, applied through the generated xml hook (run through ZStack's xmlhook.py
 * under Python 3 and 2 on the domain XML vm_plugin.py builds), cache and sparse validation answered as ZStack
 * errors, and onUnsatisfied=fail refusing the start.
 */
class AioIoModeLocalStorageCase extends AioCaseBase {
    VmInstanceInventory vm
    String root, data1, data2, ps

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        AioCaseSupport.answerProbe(env) { String hostUuid -> AioCaseSupport.CAPABLE_HOST }
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            ps = env.inventoryByName("local").uuid
            root = vm.rootVolumeUuid
            List<String> data = vm.allVolumes.findAll { it.uuid != root }.collect { it.uuid }.sort()
            data1 = data[0]
            data2 = data[1]

            testBadValuesAreZStackErrors()
            testEachDiskDecidedAndAppliedThroughTheHook()
            testNativeRuledOutByTheVolumeIsRefusedWhenSet()
            testFailPolicyRefusesTheStart()
        }
    }

    void testBadValuesAreZStackErrors() {
        String globalBefore = queryGlobalConfig { conditions = ["category=kvm", "name=vm.ioMode"] }[0].value
        ErrorCode e = AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "fast")
        assert e != null
        assert e.details.contains("'fast' is not a valid value of kvm/vm.ioMode.")
        assert e.details.contains("Valid values (exact, lowercase, no spaces): threads, native, io_uring, auto.")
        e = AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", "retry")
        assert e != null && e.details.contains("Valid values (exact, lowercase, no spaces): fallback, fail.")
        e = AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.native.allowFalloc", ps, "yes")
        assert e != null && (e.details.contains("not a valid boolean string")
                || e.details.contains("'yes' is not a valid value of kvm/vm.ioMode.native.allowFalloc"))
        e = AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "fast")
        assert e != null && e.details.contains("is not a valid value of kvm/vm.ioMode")
        // white space never reaches the stored value: ZStack's API trims every @APIParam string
        // (APIMessage.validate) before the module's validators see it, so a raw " threads" is stored as "threads".
        // Sent raw, as a script would (ZStack's Java SDK trims too); the standalone server refuses it instead.
        assert AioCaseSupport.rawPut(adminSession(), "global-configurations/kvm/vm.ioMode/actions",
                '{"updateGlobalConfig":{"value":" native"}}') == null
        assert queryGlobalConfig { conditions = ["category=kvm", "name=vm.ioMode"] }[0].value == "native"
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", globalBefore) == null
        assert AioCaseSupport.rawPut(adminSession(), "resource-configurations/kvm/vm.ioMode/${ps}/actions",
                '{"updateResourceConfig":{"value":"native "}}') == null
        assert getResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = ps }.value == "native"
        deleteResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = ps }
        // bindings are the core's table: onUnsatisfied is global only, allowFalloc per primary storage
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", data1, "fail") != null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", ps, "fail") != null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.native.allowFalloc", data1, "true") != null
        // nothing was written
        assert queryResourceConfig { conditions = ["category=kvm", "name~=vm.ioMode%"] }.isEmpty()
        assert queryGlobalConfig { conditions = ["category=kvm", "name=vm.ioMode"] }[0].value == globalBefore
    }

    void testEachDiskDecidedAndAppliedThroughTheHook() {
        // primary storage: native, preallocated full; data1 overrides to threads; data2 keeps native but writes back
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", ps, "native") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "threads") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data2, "writeback") == null

        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        KVMAgentCommands.StartVmCmd cmd = starts[0]
        assert cmd.rootVolume.volumeUuid == root
        assert cmd.dataVolumes*.volumeUuid.sort() == [data1, data2]

        Map<String, Map<String, String>> disks = AioHookRunner.run(cmd)
        assert disks[root] == [io: "native", cache: "none"]
        assert disks[data1] == [io: "threads", cache: "none"]
        assert disks[data2] == [io: "threads", cache: "writeback"]

        def r = AioCaseSupport.decision(adminSession(), root)
        assert r.requested == "native" && r.source == "PrimaryStorageVO" && r.effective == "native" && !r.refused
        assert r.operation == "start" && r.vmInstanceUuid == vm.uuid && r.hostUuid == env.inventoryByName("kvm").uuid
        assert r.checks.find { it.check == "non-sparse-image" }.passed
        assert r.checks.find { it.check == "non-sparse-image" }.message.contains("preallocation full")

        def d1 = AioCaseSupport.decision(adminSession(), data1)
        assert d1.requested == "threads" && d1.source == "VolumeVO" && d1.effective == "threads"

        def d2 = AioCaseSupport.decision(adminSession(), data2)
        assert d2.requested == "native" && d2.source == "PrimaryStorageVO" && d2.effective == "threads"
        assert d2.reason.contains("check cache-mode failed")
        assert d2.checks.find { it.check == "cache-mode" }.message.contains("writeback")
        // a refused native steps down to threads, never up to io_uring
        assert !d2.checks.any { it.mode == "io_uring" }

        // what the host's facts make true: its probe says io_uring works, so io_uring asked on the writeback volume
        // is applied, each io_uring check naming the fact it passed on
        String host = env.inventoryByName("kvm").uuid
        AioCaseSupport.qemuKvm(host, "8.2.0")
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data2, "io_uring") == null
        starts.clear()
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert AioHookRunner.run(starts[0])[data2] == [io: "io_uring", cache: "writeback"]
        d2 = AioCaseSupport.decision(adminSession(), data2)
        assert d2.requested == "io_uring" && d2.effective == "io_uring"
        assert d2.checks.findAll { it.mode == "io_uring" }*.check.containsAll(["kernel-version", "io_uring-sysctl",
                "qemu-version", "qemu-io_uring-support", "libvirt-version"])
        assert d2.checks.find { it.check == "io_uring-sysctl" }.message == "kernel.io_uring_disabled is 0: io_uring is enabled."
        assert d2.checks.find { it.check == "qemu-version" }.message == "QEMU 8.2.0 is at least 5.0."
        deleteResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = data2 }
    }

    void testNativeRuledOutByTheVolumeIsRefusedWhenSet() {
        // cache: data2 writes back, so native on data2 itself is refused when set, with the check's sentence
        ErrorCode e = AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data2, "native")
        assert e != null
        assert e.details.contains("cache-mode") && e.details.contains("writeback")
        // sparse: with qcow2.allocation none on its primary storage, data1's image is sparse
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "none") == null
        e = AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "native")
        assert e != null
        assert e.details.contains("non-sparse-image") && e.details.contains("preallocation none")
        // the refused values changed nothing
        assert getResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = data1 }.value == "threads"
        assert queryResourceConfig { conditions = ["category=kvm", "name=vm.ioMode", "resourceUuid=${data2}".toString()] }.isEmpty()
        // falloc counts when allowFalloc is true on the primary storage
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "falloc") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "native") != null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.native.allowFalloc", ps, "true") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "native") == null
        // and a cache mode that would break data1's own native is refused the same way (the core's VolumeSetRule)
        e = AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data1, "writeback")
        assert e != null && e.details.contains("because the volume's own kvm/vm.ioMode is native")
        assert queryResourceConfig { conditions = ["category=kvm", "name=vm.cacheMode", "resourceUuid=${data1}".toString()] }.isEmpty()
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data1, "none") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "threads") == null
        // without its own native, data1 may write back
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data1, "writeback") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data1, "none") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "none") == null
    }

    void testFailPolicyRefusesTheStart() {
        // root inherits native from the primary storage, whose images are now sparse
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", "fail") == null
        def before = AioCaseSupport.decision(adminSession(), root)
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        StartVmInstanceAction a = new StartVmInstanceAction(uuid: vm.uuid, sessionId: adminSession())
        StartVmInstanceAction.Result res = a.call()
        assert res.error != null
        String text = res.error.toString() + " " + res.error.details + " " + res.error.cause?.details
        // the core's one refusal sentence (IoModeRefusal), naming the volume, the mode and the check, and what to do
        assert text.contains("(${root}) cannot run native: check non-sparse-image failed: ")
        assert text.contains("set kvm/vm.ioMode.onUnsatisfied to fallback.")
        assert starts.isEmpty(): "a refused start must not reach the agent"
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Stopped
        def unchanged = AioCaseSupport.decision(adminSession(), root)
        assert [unchanged.decidedAt, unchanged.effective, unchanged.refused, unchanged.reason, unchanged.operation] ==
                [before.decidedAt, before.effective, before.refused, before.reason, before.operation]

        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", "fallback") == null
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        assert AioHookRunner.run(starts[0])[root].io == "threads"
        def after = AioCaseSupport.decision(adminSession(), root)
        assert after.effective == "threads" && after.reason.contains("fell back to threads")
    }
}
