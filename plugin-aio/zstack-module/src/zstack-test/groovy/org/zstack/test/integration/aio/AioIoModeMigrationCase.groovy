package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.header.host.HostVO
import org.zstack.header.host.HostVO_
import org.zstack.kvm.KVMAgentCommands
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.HostInventory
import org.zstack.sdk.MigrateVmAction
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.gson.JSONObjectUtil

/**
 * Live migration keeps each disk's mode (ZStack migrates with the source's XML): a host that cannot run an io_uring
 * disk is no migration candidate, and a MigrateVm aimed at it is refused naming the disk and the missing capability.
 * Without an io_uring disk the same host is a candidate again. After a migration the stored decisions say what the
 * disks run on the destination: the same mode when the XML was carried over, threads for a file disk whose XML the
 * migration rebuilt (until the next start applies the decision again). The probe tells a host whose kvmagent carries
 * the plugin-aio patch apart, and a hot-plug there gets the exact mode.
 */
class AioIoModeMigrationCase extends AioTwoHostsBase {
    // the core's names (AgentProfile), written out: the module's classes join the classpath after the cases compile
    static final String APPLIED_CHECK = "applied-by-agent"
    static final String MIGRATED_CHECK = "kept-at-migration"
    /** kvm runs io_uring with the kvmagent patch; kvm2's kernel has io_uring switched off, until the case turns it on */
    static final String PATCHED_HOST = AioCaseSupport.CAPABLE_HOST.replaceAll(/kvmagent_patch=no\n.*\n/, "kvmagent_patch=yes\n")
    String kvm2Probe = AioCaseSupport.CAPABLE_HOST.replace("io_uring_disabled=0", "io_uring_disabled=2")
    List<String> scripts

    @Override
    protected List<String> extraSpringXml() {
        return ["AioMigrationDiskMoveStandIn.xml"]
    }

    @Override
    void environment() {
        env = AioEnvs.twoHostsSharedMountPoint()
        scripts = AioCaseSupport.answerProbe(env) { String hostUuid ->
            String ip = Q.New(HostVO.class).select(HostVO_.managementIp).eq(HostVO_.uuid, hostUuid).findValue()
            return ip == "127.0.0.1" ? kvm2Probe : PATCHED_HOST
        }
    }

    @Override
    void test() {
        env.create {
            twoHosts()
            assert AioCaseSupport.hostFacts(adminSession(), kvm2).ioUringDisabled == 2
            testTheProbeTellsAPatchedKvmagentApart()
            testAHostThatCannotRunAnIoUringDiskIsNoCandidate()
            testWithoutAnIoUringDiskItIsACandidate()
            testAHotPlugOnAPatchedHostGetsTheExactMode()
            testAPlainLiveMigrationKeepsWhatTheDisksRun()
            testAMigrationThatRebuildsTheDisksRecordsWhatTheyRunNow()
        }
    }

    private void restart() {
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid; hostUuid = kvm }
    }

    void testTheProbeTellsAPatchedKvmagentApart() {
        assert scripts[-1].contains('grep -q "aioIoMode"')
        def patched = AioCaseSupport.hostFacts(adminSession(), kvm)
        // the core's host-facts contract names the agent the module counts on, from the probe's kvmagent_patch= line
        assert patched.agent == "ZStack's agent with the plugin-aio patch" && patched.probeOutput.contains("kvmagent_patch=yes\n")
        assert patched.unknown.isEmpty()
        def stock = AioCaseSupport.hostFacts(adminSession(), kvm2)
        assert stock.agent == "ZStack's agent" && stock.probeOutput.contains("kvmagent_patch=no\n")
        assert stock.probeOutput.contains("kvmagent_patch_reason=")
    }

    void testAHostThatCannotRunAnIoUringDiskIsNoCandidate() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data, "io_uring") == null
        restart()
        assert AioCaseSupport.decision(adminSession(), data).effective == "io_uring"

        List<HostInventory> candidates = getVmMigrationCandidateHosts { vmInstanceUuid = vm.uuid } as List<HostInventory>
        assert !candidates*.uuid.contains(kvm2)

        // MigrateVm allocates its destination through the same filter (VmAllocateHostForMigrateVmFlow ->
        // DesignatedAllocateHostMsg): ZStack's allocation error carries the filter's sentence to the admin
        MigrateVmAction a = new MigrateVmAction()
        a.vmInstanceUuid = vm.uuid
        a.hostUuid = kvm2
        a.sessionId = adminSession()
        def r = a.call()
        assert r.error != null
        String why = JSONObjectUtil.toJsonString(r.error)
        VolumeInventory dataVol = (queryVolume { conditions = ["uuid=${data}".toString()] } as List<VolumeInventory>)[0]
        assert why.contains("volume ${dataVol.name} (${data}) runs io_uring and ZStack's agent migrates a disk as it runs")
        assert why.contains("host kvm2 (${kvm2}) cannot run io_uring")
        assert why.contains("check io_uring-sysctl failed") && why.contains("kernel.io_uring_disabled is 2")
        assert hostOf() == kvm
        // nothing moved: the record is the start's
        assert AioCaseSupport.decision(adminSession(), data).operation == "start"
    }

    void testWithoutAnIoUringDiskItIsACandidate() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data, "threads") == null
        restart()
        List<HostInventory> candidates = getVmMigrationCandidateHosts { vmInstanceUuid = vm.uuid } as List<HostInventory>
        assert candidates*.uuid == [kvm2]
    }

    private VolumeInventory hotPlug(String mode, List<KVMAgentCommands.AttachDataVolumeCmd> attaches) {
        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        VolumeInventory hot = createDataVolume { name = "hot-${mode}-${attaches.size()}".toString(); diskOfferingUuid = offering.uuid }
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", hot.uuid, mode) == null
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = hot.uuid }
        return hot
    }

    /** kvm's probe found the patch: io_uring at hot-plug is sent through the aioIoMode addon and recorded as it runs. */
    void testAHotPlugOnAPatchedHostGetsTheExactMode() {
        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        VolumeInventory hot = hotPlug("io_uring", attaches)
        assert attaches.size() == 1
        assert (attaches[0].addons["aioIoMode"] as Map)[hot.uuid] == "io_uring"
        assert attaches[0].addons["NativeAio"] == null
        def d = AioCaseSupport.decision(adminSession(), hot.uuid)
        assert d.operation == "attach" && d.hostUuid == kvm && d.effective == "io_uring"
        assert !d.checks.any { it.check == APPLIED_CHECK }
        detachDataVolumeFromVm { uuid = hot.uuid }
    }

    /**
     * Shared mount point storage: ZStack's agent migrates with the source's XML. The record moves to the destination
     * (operation migrate) and keeps the mode; kvm2's unmodified agent then cannot give a hot-plugged disk io_uring.
     */
    void testAPlainLiveMigrationKeepsWhatTheDisksRun() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data, "io_uring") == null
        restart()
        def started = AioCaseSupport.decision(adminSession(), data)
        assert started.effective == "io_uring" && started.hostUuid == kvm

        kvm2Probe = AioCaseSupport.CAPABLE_HOST
        reconnectHost { uuid = kvm2 }
        qemu()
        assert AioCaseSupport.hostFacts(adminSession(), kvm2).ioUringDisabled == 0

        List<KVMAgentCommands.MigrateVmCmd> migrations = AioCaseSupport.recordMigrations(env)
        migrateVm { vmInstanceUuid = vm.uuid; hostUuid = kvm2 }
        qemu()
        assert hostOf() == kvm2
        assert migrations.size() == 1 && (migrations[0].disks == null || migrations[0].disks.isEmpty())
        def moved = AioCaseSupport.decision(adminSession(), data)
        assert moved.operation == "migrate" && moved.hostUuid == kvm2
        assert moved.effective == "io_uring" && AioCaseSupport.checks(moved) == AioCaseSupport.checks(started) && moved.reason == started.reason
        def root = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert root.operation == "migrate" && root.hostUuid == kvm2 && root.effective == "threads"

        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        VolumeInventory hot = hotPlug("io_uring", attaches)
        def d = AioCaseSupport.decision(adminSession(), hot.uuid)
        assert d.hostUuid == kvm2 && d.effective == "threads"
        assert d.checks.any { it.check == APPLIED_CHECK && !it.passed && it.mode == "io_uring" }
        detachDataVolumeFromVm { uuid = hot.uuid }
    }

    /**
     * A migration whose command moves the disks (MigrateVmCmd.disks; MigrationDiskMoveStandIn, as closed-source
     * ZStack's storage migration sends it): the agent writes each disk anew, a file disk without io=. The record says
     * threads and why; the next start applies io_uring again.
     */
    void testAMigrationThatRebuildsTheDisksRecordsWhatTheyRunNow() {
        List<KVMAgentCommands.MigrateVmCmd> migrations = AioCaseSupport.recordMigrations(env)
        MigrationDiskMoveStandIn.VMS.add(vm.uuid)
        try {
            migrateVm { vmInstanceUuid = vm.uuid; hostUuid = kvm }
        } finally {
            MigrationDiskMoveStandIn.VMS.remove(vm.uuid)
        }
        qemu()
        assert hostOf() == kvm
        assert migrations.size() == 1 && migrations[0].disks.values()*.volumeUuid.toSet() == ([vm.rootVolumeUuid, data] as Set)

        def d = AioCaseSupport.decision(adminSession(), data)
        assert d.operation == "migrate" && d.hostUuid == kvm && d.requested == "io_uring" && d.effective == "threads"
        def kept = d.checks.find { it.check == MIGRATED_CHECK }
        assert kept != null && !kept.passed && kept.mode == "io_uring"
        // kvm2's unmodified agent, the source, wrote the XML kvm runs
        assert kept.message == "the live migration to host kvm (${kvm}) rebuilt the disk's domain XML, where ZStack's agent" +
                " writes a file disk without an io attribute, so the disk runs threads until the VM's next start, which" +
                " applies the decision again"
        assert d.reason.endsWith("which applies the decision again.")
        // the root disk ran threads: a rebuilt file disk runs threads too, nothing to add
        def root = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert root.operation == "migrate" && root.effective == "threads"
        assert !root.checks.any { it.check == MIGRATED_CHECK }

        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        restart()
        assert AioHookRunner.run(starts[0])[data].io == "io_uring"
        def again = AioCaseSupport.decision(adminSession(), data)
        assert again.operation == "start" && again.effective == "io_uring"
        assert !again.checks.any { it.check == MIGRATED_CHECK }
    }
}
