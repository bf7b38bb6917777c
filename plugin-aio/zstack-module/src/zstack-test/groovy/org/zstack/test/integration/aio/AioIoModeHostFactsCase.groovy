package org.zstack.test.integration.aio

import org.zstack.header.host.HostStatus
import org.zstack.header.host.HostVO
import org.zstack.header.host.HostVO_
import org.zstack.core.db.Q
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO_
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.VolumeTO
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.data.SizeUnit

/**
 * Host facts from plugin-aio's probe, run through ZStack's KvmRunShellMsg at every connect and reconnect (the
 * simulator answers with the probe's lines): io_uring chosen on a capable host, refused with the fact that rules it out
 * (io_uring_disabled=2, an old kernel, qemu_io_uring=no, a failed probe that never blocks the connect), auto on sparse
 * and preallocated file volumes, and sparseness measured by actualSize under a falloc policy.
 */
class AioIoModeHostFactsCase extends AioCaseBase {
    /** what the simulated host's probe prints at its next connect; null: SSH fails */
    String probe = AioCaseSupport.CAPABLE_HOST
    List<String> scripts
    String host, root, data1, data2, ps
    VmInstanceInventory vm

    @Override
    protected List<String> extraSpringXml() {
        return ["AioVhostUserStandIn.xml"]
    }

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        scripts = AioCaseSupport.answerProbe(env) { String hostUuid -> probe }
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            host = env.inventoryByName("kvm").uuid
            ps = env.inventoryByName("local").uuid
            root = vm.rootVolumeUuid
            List<String> data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)*.uuid.sort()
            data1 = data[0]
            data2 = data[1]
            AioCaseSupport.qemuKvm(host, "8.2.0-13.el9")
            testTheProbeRanAtConnectAndItsFactsAreShown()
            testIoUringChosenOnACapableHost()
            testIoUringRefusedByTheFactThatRulesItOut()
            testAFailedProbeNeverBlocksTheConnect()
            testADiskTheHookCannotReachIsRecordedSo()
            testAutoOnSparseAndPreallocatedVolumes()
            testSparseByActualSizeUnderFalloc()
        }
    }

    private Map<String, Map<String, String>> restart() {
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        return AioHookRunner.run(starts[0])
    }

    private void reconnect(String lines) {
        probe = lines
        int before = scripts.size()
        reconnectHost { uuid = host }
        assert scripts.size() == before + 1: "the probe runs again at every reconnect"
        assert Q.New(HostVO.class).select(HostVO_.status).eq(HostVO_.uuid, host).findValue() == HostStatus.Connected
        // ZStack's reconnect records the simulator's QEMU in KvmHypervisorInfoVO, and the facts take it from there
        String recorded = Q.New(KvmHypervisorInfoVO.class).select(KvmHypervisorInfoVO_.version)
                .eq(KvmHypervisorInfoVO_.uuid, host).findValue()
        if (recorded != null) {
            assert recorded.startsWith(AioCaseSupport.hostFacts(adminSession(), host).qemu as String)
        }
        AioCaseSupport.qemuKvm(host, "8.2.0-13.el9")
    }

    void testTheProbeRanAtConnectAndItsFactsAreShown() {
        // the script sent over SSH is the module's own probe, shipped in its jar
        assert !scripts.isEmpty()
        assert scripts[-1].contains("qemu-img bench -f raw -t writeback -i io_uring")
        assert scripts[-1].contains('"io_uring_disabled=$(cat "$proc/sys/kernel/io_uring_disabled")"')

        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.hostUuid == host
        assert f.kernel == "6.8.0" && f.ioUringDisabled == 0 && f.qemuIoUring && f.libvirt == "10.0.0"
        // QEMU's version is the one ZStack records (KvmHypervisorInfoVO), not the probe's qemu-img
        assert f.qemu == "8.2.0"
        assert f.unknown.isEmpty()
        assert f.probeOutput == AioCaseSupport.CAPABLE_HOST && f.probeFailure == null && f.probedAt != null
    }

    void testIoUringChosenOnACapableHost() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "io_uring") == null
        Map<String, Map<String, String>> disks = restart()
        assert disks[data1].io == "io_uring"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.requested == "io_uring" && d.effective == "io_uring" && !d.refused
        assert d.checks.find { it.check == "kernel-version" }.message == "host kernel 6.8.0 is at least 5.1."
        assert d.checks.find { it.check == "qemu-io_uring-support" }.passed
    }

    void testIoUringRefusedByTheFactThatRulesItOut() {
        reconnect(AioCaseSupport.CAPABLE_HOST.replace("io_uring_disabled=0", "io_uring_disabled=2"))
        assert restart()[data1].io == "threads"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.effective == "threads" && d.reason.contains("check io_uring-sysctl failed")
        assert d.reason.contains("kernel.io_uring_disabled is 2")

        reconnect(AioCaseSupport.CAPABLE_HOST.replace("6.8.0-45-generic", "4.18.0-553.el8").replace("io_uring_disabled=0\n", ""))
        assert AioCaseSupport.hostFacts(adminSession(), host).ioUringDisabled == null
        assert restart()[data1].io == "threads"
        d = AioCaseSupport.decision(adminSession(), data1)
        assert d.effective == "threads" && d.reason.contains("check kernel-version failed")
        assert d.reason.contains("host kernel 4.18.0 is older than 5.1")

        String why = "qemu-img: Could not open '/tmp/tmp.x/probe.img': Unable to use io_uring: Operation not permitted"
        reconnect(AioCaseSupport.CAPABLE_HOST.replace("qemu_io_uring=yes", "qemu_io_uring=no\nqemu_io_uring_reason=" + why))
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.qemuIoUring == false && f.qemuIoUringReason == why
        assert restart()[data1].io == "threads"
        d = AioCaseSupport.decision(adminSession(), data1)
        assert d.effective == "threads" && d.reason.contains("check qemu-io_uring-support failed")
        assert d.reason.contains("QEMU on this host refused aio=io_uring")
    }

    void testAFailedProbeNeverBlocksTheConnect() {
        reconnect(null)
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.kernel == null && f.qemuIoUring == null && f.probeOutput == null
        assert f.probeFailure.contains("connection refused")
        assert f.unknown.any { it.startsWith("the kernel version is unknown: the host probe failed (") }
        assert restart()[data1].io == "threads"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.effective == "threads" && d.reason.contains("host kernel version is unknown")

        reconnect(AioCaseSupport.CAPABLE_HOST)
        assert restart()[data1].io == "io_uring"
    }

    void testADiskTheHookCannotReachIsRecordedSo() {
        // data2 reaches the agent as a vhost-user disk, which vm_plugin.py writes without a <serial>
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data2, "io_uring") == null
        VhostUserDiskStandIn.VOLUMES.add(data2)
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        try {
            stopVmInstance { uuid = vm.uuid }
            startVmInstance { uuid = vm.uuid }
        } finally {
            VhostUserDiskStandIn.VOLUMES.remove(data2)
        }
        VolumeTO vhost = starts[0].dataVolumes.find { it.volumeUuid == data2 }
        assert vhost.deviceType == "vhost"
        String hook = new String(Base64.decoder.decode(starts[0].addons["userDefinedXmlHookScript"] as String), "UTF-8")
        assert hook.contains("'${data1}': 'io_uring'") && !hook.contains(data2)
        def d = AioCaseSupport.decision(adminSession(), data2)
        assert d.requested == "io_uring" && d.effective == "threads"
        def reached = d.checks.find { it.check == "reached-at-start" }
        assert reached.mode == "io_uring" && !reached.passed
        assert reached.message.contains("ZStack's agent writes no <serial> for a vhost-user disk")
        assert d.reason.endsWith("so the disk runs threads.")
    }

    void testAutoOnSparseAndPreallocatedVolumes() {
        long size = SizeUnit.GIGABYTE.toByte(10)
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "auto") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data2, "auto") == null
        AioCaseSupport.actualSize(data1, size + SizeUnit.MEGABYTE.toByte(2))   // preallocated: qcow2 metadata on top
        AioCaseSupport.actualSize(data2, SizeUnit.MEGABYTE.toByte(200))         // sparse, whatever the policy says
        // on the capable host auto takes io_uring, sparse or not
        Map<String, Map<String, String>> disks = restart()
        assert disks[data1].io == "io_uring" && disks[data2].io == "io_uring"
        // with io_uring switched off, auto takes native only where the image is really allocated
        reconnect(AioCaseSupport.CAPABLE_HOST.replace("io_uring_disabled=0", "io_uring_disabled=2"))
        disks = restart()
        assert disks[data1].io == "native"
        assert disks[data2].io == "threads"
        def d2 = AioCaseSupport.decision(adminSession(), data2)
        assert d2.requested == "auto" && d2.effective == "threads"
        assert d2.reason.contains("io_uring is ruled out by check io_uring-sysctl")
        def sparse = d2.checks.find { it.check == "non-sparse-image" }
        assert !sparse.passed && sparse.message.contains("${SizeUnit.MEGABYTE.toByte(200)} of ${size} bytes allocated, preallocation full")
    }

    void testSparseByActualSizeUnderFalloc() {
        long size = SizeUnit.GIGABYTE.toByte(10)
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "falloc") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.native.allowFalloc", ps, "true") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "native") == null
        AioCaseSupport.actualSize(data1, SizeUnit.GIGABYTE.toByte(1))
        // the policy (falloc, allowed) says non-sparse; the measured volume is sparse: the cautious answer wins
        assert restart()[data1].io == "threads"
        def d = AioCaseSupport.decision(adminSession(), data1)
        assert d.requested == "native" && d.effective == "threads"
        assert d.reason.contains("check non-sparse-image failed")
        assert d.reason.contains("${SizeUnit.GIGABYTE.toByte(1)} of ${size} bytes allocated, preallocation falloc")
        // measured full, the same policy lets native through
        AioCaseSupport.actualSize(data1, size)
        assert restart()[data1].io == "native"
        assert AioCaseSupport.decision(adminSession(), data1).checks.find { it.check == "non-sparse-image" }.message ==
                "preallocation falloc (measured: ${size} of ${size} bytes allocated) counts as non-sparse because" +
                " kvm/vm.ioMode.native.allowFalloc is true."
        AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "threads")
        AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data2, "threads")
    }
}
