package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.VolumeTO
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.storage.primary.smp.SMPConstants
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

/**
 * plugin-aio on SharedBlock (block LVs; the agent hard-codes io='native' for them). The SharedBlock backend is not in
 * open-source ZStack: a shared mount point storage is given the type SharedBlock, and SharedBlockDeviceStandIn makes
 * its volumes reach the agent as block devices, as the backend does. Checked: SharedBlock storage the upgrade script
 * never saw (added after the install) runs native with no config, from the rules' default for block storage, and
 * follows an admin's value on the storage or a changed global value instead; the upgrade script pins native on the
 * existing SharedBlock storage (idempotently); at hot-plug the decision says that the unmodified agent cannot apply
 * threads to a block disk.
 */
class AioIoModeSharedBlockCase extends AioCaseBase {
    VmInstanceInventory vm
    String ps
    VolumeInventory spare

    @Override
    protected List<String> extraSpringXml() {
        return ["AioSharedBlockStandIn.xml"]
    }

    /** ZStack deletes a primary storage through its type's factory: give the storage its real type back first. */
    @Override
    void clean() {
        if (ps != null) {
            SharedBlockDeviceStandIn.retype(ps, SMPConstants.SMP_TYPE)
        }
        super.clean()
    }

    @Override
    void environment() {
        env = AioEnvs.sharedMountPoint()
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            ps = env.inventoryByName("sblk").uuid
            // a volume instantiated while the storage is still a shared mount point, for the hot-plug below
            spare = createDataVolume {
                name = "spare"
                diskOfferingUuid = (env.inventoryByName("diskOffering") as DiskOfferingInventory).uuid
                primaryStorageUuid = ps
            } as VolumeInventory
            attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = spare.uuid }
            detachDataVolumeFromVm { uuid = spare.uuid }
            SharedBlockDeviceStandIn.retype(ps, SharedBlockDeviceStandIn.TYPE)

            testSharedBlockAddedAfterTheInstallRunsNativeWithNoConfig()
            testAnAdminsChangedGlobalValueWinsOverTheKindsDefault()
            testAnAdminsStorageValueWinsOverTheKindsDefault()
            testUpgradeScriptPinsNativeOnSharedBlock()
            testHotPlugSaysTheAgentCannotApplyThreads()
        }
    }

    /** No config anywhere, no pin: the rules' default for block storage, what ZStack's agent gave it before. */
    void testSharedBlockAddedAfterTheInstallRunsNativeWithNoConfig() {
        assert getResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = ps }.value == "threads" // ZStack's own view: the global value
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        KVMAgentCommands.StartVmCmd cmd = starts[0]
        ([cmd.rootVolume] + cmd.dataVolumes).each { assert it.deviceType == VolumeTO.BLOCK }
        Map<String, Map<String, String>> disks = AioHookRunner.run(cmd)
        assert disks.size() == 2
        disks.values().each { assert it == [io: "native", cache: "none"] }
        def d = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert d.requested == "native" && d.source == "StorageKindDefault" && d.effective == "native"
        assert d.reason.startsWith("native requested (StorageKindDefault: SharedBlock is block storage, whose default is" +
                " native in conf/aio/io-mode-rules.yaml, and no admin set kvm/vm.ioMode)")
    }

    /**
     * A global value an admin changed wins over the kind's default; set back to its default (threads) it is no change,
     * as ZStack stores the value alone. On block storage any requested mode but threads ends on native (io_uring is
     * known-bad on LVM), so what shows that the global value was followed is the request and its source.
     */
    void testAnAdminsChangedGlobalValueWinsOverTheKindsDefault() {
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "auto") == null
        try {
            rebootVmInstance { uuid = vm.uuid }
            def d = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
            assert d.requested == "auto" && d.source == "global"
            assert !d.reason.contains("StorageKindDefault")
        } finally {
            assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "threads") == null
        }
        rebootVmInstance { uuid = vm.uuid }
        def back = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert back.requested == "native" && back.source == "StorageKindDefault"
    }

    /** An admin's threads on the storage wins: the hook turns the agent's hard-coded native into threads. */
    void testAnAdminsStorageValueWinsOverTheKindsDefault() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", ps, "threads") == null
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        rebootVmInstance { uuid = vm.uuid }
        AioHookRunner.run(starts[0]).values().each { assert it == [io: "threads", cache: "none"] }
        def d = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert d.requested == "threads" && d.source == "PrimaryStorageVO" && d.effective == "threads"
        // the upgrade script below runs on storage without an admin's value
        deleteResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = ps }
    }

    void testUpgradeScriptPinsNativeOnSharedBlock() {
        // the module's Flyway script, as ZStack's upgrade_db runs it, on a database that already has SharedBlock storage
        String script = getClass().classLoader.getResource("db/upgrade/V5.2.1.100__aio_io_mode.sql").text
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        2.times {
            script.split(";\\s*\\n").collect { stripComments(it) }.findAll { !it.isEmpty() }.each { jdbc.execute(it) }
        }
        assert jdbc.queryForObject("SELECT COUNT(*) FROM ResourceConfigVO WHERE resourceUuid = ? AND category = 'kvm'" +
                " AND name = 'vm.ioMode'", Integer.class, ps) == 1
        // upgrade_db runs with the management nodes stopped: they start with nothing kept in memory
        AioCaseSupport.forgetKeptFacts()
        def rc = getResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = ps }
        assert rc.value == "native"

        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        rebootVmInstance { uuid = vm.uuid }
        AioHookRunner.run(starts[0]).values().each { assert it == [io: "native", cache: "none"] }
        def d = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert d.requested == "native" && d.source == "PrimaryStorageVO" && d.effective == "native"
        assert d.checks.find { it.check == "non-sparse-image" }.message.contains("block devices")
    }

    void testHotPlugSaysTheAgentCannotApplyThreads() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", spare.uuid, "threads") == null
        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = spare.uuid }
        assert attaches.size() == 1
        KVMAgentCommands.AttachDataVolumeCmd cmd = attaches[0]
        assert cmd.volume.deviceType == VolumeTO.BLOCK
        assert cmd.addons["NativeAio"] == null
        assert (cmd.addons["aioIoMode"] as Map)[spare.uuid] == "threads"
        def d = AioCaseSupport.decision(adminSession(), spare.uuid)
        // the record says what the disk really runs: the agent's hard-coded native, and why
        assert d.operation == "attach" && d.requested == "threads" && d.effective == "native" && d.source == "VolumeVO"
        assert d.reason.contains("at hot-plug ZStack's agent can only add io=native")
        assert d.reason.endsWith("so the disk runs native.")
        def applied = d.checks.find { it.check == "applied-by-agent" }
        assert applied != null && applied.mode == "threads" && !applied.passed
    }

    private static String stripComments(String sql) {
        return sql.readLines().findAll { !it.trim().startsWith("--") }.join("\n").trim()
    }
}
