package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMConstant
import org.zstack.sdk.StartVmInstanceAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.data.SizeUnit
import org.zstack.utils.gson.JSONObjectUtil

/**
 * A start libvirt or QEMU refused an io mode at (issue 34, recovery): the simulated agent answers the StartVmCmd with
 * the error ZStack's kvmagent gives (vm_plugin.py's KvmError with libvirt's message, which quotes QEMU's stderr), in
 * QEMU's and libvirt's own words as the rules file keeps them (startRefusals).
 *
 * With onUnsatisfied = fallback: the start fails with the core's sentence naming the disk, io_uring and the mode the
 * next start uses; the refusal is remembered for the host × storage (AioRefusedIoModeVO, shown by GetHostIoFacts under
 * the storage); the next start runs the disk on that mode and its record lists the refused attempt and why; no later
 * start tries io_uring there until it is cleared: not by a probe outside QEMU's sandbox (a reconnect, even with
 * another libvirt, keeps QEMU's sandbox refusal), by an admin (ClearRefusedIoModeAction; bad input changes nothing),
 * after which io_uring is tried again; a refusal of the build (libvirt: "not supported by this QEMU binary") goes with
 * a probe that reports another libvirt. With fail (and io_uring chosen for the volume: auto always steps down): the
 * same start fails with the sentence, and nothing is remembered.
 */
class AioIoModeRecoveryCase extends AioCaseBase {
    String probe
    String host, ps, data1
    VmInstanceInventory vm
    JdbcTemplate jdbc
    List<KVMAgentCommands.StartVmCmd> starts = Collections.synchronizedList([])
    /** the libvirt error the next StartVmCmd is answered with (given the command); null: the start succeeds */
    Closure<String> refuse

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        probe = AioCaseSupport.CAPABLE_HOST
        AioCaseSupport.answerProbe(env) { String hostUuid -> probe }
        SimulatedHostQemu.reports(env) { "8.2.2" }
    }

    /** The words the rules file keeps for a refusal, by id (conf/aio/io-mode-rules.yaml in the module's jar). */
    static String words(String id) {
        def rules = Class.forName("org.zstack.aio.decision.rules.IoModeRulesLoader").fromClasspath()
        def row = rules.startRefusals().find { it.id() == id }
        assert row != null: "no startRefusals row ${id}"
        return row.text()
    }

    /**
     * What ZStack's kvmagent answers a start libvirt failed (vm_plugin.py start_vm: the traceback of its KvmError with
     * libvirt's message) where QEMU refused the disk at {@code path} with {@code aio}: libvirt quotes QEMU's stderr.
     */
    static String agentError(KVMAgentCommands.StartVmCmd cmd, String libvirtError) {
        return "Traceback (most recent call last):\n  File \"/var/lib/zstack/virtualenv/kvm/lib/python2.7/site-packages/kvmagent/" +
                "plugins/vm_plugin.py\", line 6979, in _start_vm\n    'unable to start vm[uuid:%s, name:%s], libvirt error: %s'" +
                " % (cmd.vmInstanceUuid, cmd.vmName, str(e)))\nKvmError: unable to start vm[uuid:${cmd.vmInstanceUuid}," +
                " name:${cmd.vmName}], libvirt error: ${libvirtError}\n"
    }

    static String qemuClosed(KVMAgentCommands.StartVmCmd cmd, String path, String aio, String words) {
        return "internal error: QEMU unexpectedly closed the monitor (vm='${cmd.vmInstanceUuid}'): 2026-11-27T10:00:00.123456Z" +
                " qemu-system-x86_64: -blockdev {\"driver\":\"file\",\"filename\":\"${path}\",\"node-name\":\"libvirt-2-storage\"," +
                "\"auto-read-only\":true,\"discard\":\"unmap\",\"aio\":\"${aio}\",\"cache\":{\"direct\":true,\"no-flush\":false}}:" +
                " ${words}: Operation not permitted"
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            host = env.inventoryByName("kvm").uuid
            ps = env.inventoryByName("local").uuid
            data1 = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)*.uuid.sort()[0]
            jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
            env.afterSimulator(KVMConstant.KVM_START_VM_PATH) { KVMAgentCommands.StartVmResponse rsp, HttpEntity<String> e ->
                KVMAgentCommands.StartVmCmd cmd = JSONObjectUtil.toObject(e.body, KVMAgentCommands.StartVmCmd.class)
                starts.add(cmd)
                if (refuse != null) rsp.setError(agentError(cmd, refuse(cmd)))
                return rsp
            }
            // data1 may run native too (preallocated, measured full, cache none): the step below io_uring
            long size = SizeUnit.GIGABYTE.toByte(10)
            assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
            AioCaseSupport.actualSize(data1, size)
            assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "auto") == null
            reconnect(AioCaseSupport.CAPABLE_HOST)
            assert restart()[data1].io == "io_uring": AioCaseSupport.checks(AioCaseSupport.decision(adminSession(), data1)).findAll { !it[2] }

            testFallbackRemembersTheRefusalAndTheNextStartStepsDown()
            testNoProbeOutsideQemusSandboxClearsItAndBadClearsChangeNothing()
            testAnAdminClearsItAndIoUringIsTriedAgain()
            testAProbeWithAnotherLibvirtClearsARefusalOfTheBuild()
            testWithFailTheStartFailsAndNothingIsRemembered()
        }
    }

    private void reconnect(String lines) {
        probe = lines
        reconnectHost { uuid = host }
    }

    /** Stops and starts the VM; each disk as the hook sets it in the domain XML. */
    private Map<String, Map<String, String>> restart() {
        stopVmInstance { uuid = vm.uuid }
        int before = starts.size()
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == before + 1
        return AioHookRunner.run(starts[-1])
    }

    /** Stops the VM and starts it with the agent answering {@code libvirtError}; the start's error. */
    private org.zstack.sdk.ErrorCode refusedStart(Closure<String> libvirtError) {
        stopVmInstance { uuid = vm.uuid }
        refuse = libvirtError
        try {
            StartVmInstanceAction a = new StartVmInstanceAction(uuid: vm.uuid, sessionId: adminSession())
            def r = a.call()
            assert r.error != null: "the agent refused the start, so must the API"
            return r.error
        } finally {
            refuse = null
        }
    }

    private List refusals() {
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        def s = f.storages.find { it.primaryStorageUuid == ps }
        return s == null ? [] : s.refused
    }

    private int rows() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM AioRefusedIoModeVO WHERE hostUuid = ?", Integer.class, host)
    }

    void testFallbackRemembersTheRefusalAndTheNextStartStepsDown() {
        String said = words("qemu-io_uring-ring-init")
        int before = starts.size()
        def err = refusedStart { KVMAgentCommands.StartVmCmd cmd ->
            String path = cmd.dataVolumes.find { it.volumeUuid == data1 }.installPath
            qemuClosed(cmd, path, "io_uring", said)
        }
        // the hook asked io_uring for data1 in the refused start
        assert AioHookRunner.run(starts[before])[data1].io == "io_uring"
        assert err.details.contains("volume ") && err.details.contains("(${data1}) could not start with io_uring on host kvm (${host}):" +
                " QEMU refused it (\"${said}: Operation not permitted\"). The refusal is remembered for this host and primary" +
                " storage ${ps}, so the next start of the VM runs the volume with native.")
        assert err.details.contains("Start the VM again. QEMU's refusal stays remembered until an admin clears it, or a" +
                " read-back finds a disk here running io_uring.")
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Stopped

        def r = refusals()
        assert r.size() == 1
        assert r[0].mode == "io_uring" && r[0].by == "QEMU" && r[0].refusalId == "qemu-io_uring-ring-init"
        assert r[0].text == "${said}: Operation not permitted".toString()
        assert r[0].volumeUuid == data1 && r[0].vmInstanceUuid == vm.uuid && r[0].hostUuid == host
        assert r[0].qemu == "8.2.2" && r[0].libvirt == "10.0.0" && r[0].clearedBy == ["admin", "readBack"]
        assert r[0].refusedAt != null

        // the next start succeeds on native, and its record says why
        startVmInstance { uuid = vm.uuid }
        assert AioHookRunner.run(starts[-1])[data1].io == "native"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.requested == "auto" && d.effective == "native"
        assert d.attempts.size() == 1 && d.attempts[0].io == "io_uring"
        assert d.attempts[0].error == "QEMU at ${r[0].refusedAt}: ${said}: Operation not permitted".toString()
        def check = d.checks.find { it.check == "remembered-refusal" }
        assert check.mode == "io_uring" && !check.passed
        assert check.message.startsWith("QEMU refused io_uring for volume ${data1} at a start on this host")
        // and no later start tries io_uring there
        assert restart()[data1].io == "native"
    }

    void testNoProbeOutsideQemusSandboxClearsItAndBadClearsChangeNothing() {
        // qemu-img over SSH runs outside the sandbox libvirt starts QEMU in: a probe that says io_uring works, even with
        // another libvirt, does not clear what refused QEMU
        reconnect(AioCaseSupport.CAPABLE_HOST.replace("libvirt=10.0.0", "libvirt=10.1.0"))
        assert AioCaseSupport.hostFacts(adminSession(), host).qemuIoUring
        assert refusals().size() == 1
        assert restart()[data1].io == "native"

        // bad input, as a script sends it (the SDK checks ioMode's values itself): ZStack's error, nothing changes
        [["0" * 32, [:]], [host, [ioMode: "uring"]], [host, [ioMode: "threads"]], [host, [primaryStorageUuid: "f" * 32]],
         ["not-a-uuid", [:]], [host, [primaryStorageUuid: "not-a-uuid"]]].each { List c ->
            String body = JSONObjectUtil.toJsonString([clearRefusedIoMode: c[1]])
            String said = AioCaseSupport.rawPut(adminSession(), "hosts/${c[0]}/io-facts/actions", body)
            assert said != null: "ClearRefusedIoMode on ${c} must be refused"
            assert rows() == 1
        }
        // a mode nothing refused there: nothing is cleared, and no error
        def a = AioCaseSupport.sdk("ClearRefusedIoModeAction")
        a.hostUuid = host
        a.ioMode = "native"
        a.sessionId = adminSession()
        def res = a.call()
        assert res.error == null && res.value.inventories.isEmpty()
        assert refusals().size() == 1
    }

    void testAnAdminClearsItAndIoUringIsTriedAgain() {
        def a = AioCaseSupport.sdk("ClearRefusedIoModeAction")
        a.hostUuid = host
        a.primaryStorageUuid = ps
        a.ioMode = "io_uring"
        a.sessionId = adminSession()
        def res = a.call()
        assert res.error == null
        assert res.value.inventories.size() == 1
        assert res.value.inventories[0].mode == "io_uring" && res.value.inventories[0].primaryStorageUuid == ps
        assert refusals().isEmpty() && rows() == 0
        assert restart()[data1].io == "io_uring"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.effective == "io_uring" && d.attempts == null
        assert d.checks.find { it.check == "remembered-refusal" } == null
    }

    void testAProbeWithAnotherLibvirtClearsARefusalOfTheBuild() {
        String said = words("libvirt-io_uring-not-in-qemu")
        def err = refusedStart { KVMAgentCommands.StartVmCmd cmd -> "unsupported configuration: " + said }
        assert err.details.contains("(${data1}) could not start with io_uring on host kvm (${host}): libvirt refused it")
        def r = refusals()
        assert r.size() == 1 && r[0].refusalId == "libvirt-io_uring-not-in-qemu" && r[0].libvirt == "10.1.0"
        assert r[0].clearedBy == ["admin", "versionChange"]
        // the same QEMU and libvirt: the build that refused is still there
        reconnect(probe)
        assert refusals().size() == 1
        startVmInstance { uuid = vm.uuid }
        assert AioHookRunner.run(starts[-1])[data1].io == "native"
        // another libvirt: the refusal of the build goes, and io_uring is tried again
        reconnect(AioCaseSupport.CAPABLE_HOST.replace("libvirt=10.0.0", "libvirt=10.2.0"))
        assert refusals().isEmpty() && rows() == 0
        assert restart()[data1].io == "io_uring"
    }

    void testWithFailTheStartFailsAndNothingIsRemembered() {
        // fail is what an admin asks of a mode chosen for the volume; auto always takes the best mode that passes
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "io_uring") == null
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", "fail") == null
        try {
            assert restart()[data1].io == "io_uring"
            def before = AioCaseSupport.decision(adminSession(), data1)
            String said = words("qemu-io_uring-ring-init")
            def err = refusedStart { KVMAgentCommands.StartVmCmd cmd ->
                qemuClosed(cmd, cmd.dataVolumes.find { it.volumeUuid == data1 }.installPath, "io_uring", said)
            }
            assert err.details.contains("(${data1}) could not start with io_uring on host kvm (${host}): QEMU refused it" +
                    " (\"${said}: Operation not permitted\"), and vm.ioMode.onUnsatisfied is fail, so no other mode is tried" +
                    " and nothing is remembered.")
            assert err.details.contains("Fix what QEMU names, choose another kvm/vm.ioMode for the volume or its primary" +
                    " storage, or set kvm/vm.ioMode.onUnsatisfied to fallback.")
            assert refusals().isEmpty() && rows() == 0
            // the failed start stored nothing: the record is the last successful start's
            assert AioCaseSupport.checks(AioCaseSupport.decision(adminSession(), data1)) == AioCaseSupport.checks(before)
            // nothing changed, so the next start tries io_uring again
            startVmInstance { uuid = vm.uuid }
            assert AioHookRunner.run(starts[-1])[data1].io == "io_uring"
        } finally {
            AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.onUnsatisfied", "fallback")
            AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "auto")
        }
    }
}
