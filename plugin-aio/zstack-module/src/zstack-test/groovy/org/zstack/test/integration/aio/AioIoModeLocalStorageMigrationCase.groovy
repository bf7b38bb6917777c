package org.zstack.test.integration.aio

import org.zstack.kvm.KVMAgentCommands
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig

/**
 * LocalStorage's live migration with storage (LocalStorageKvmMigrateVmFlow) copies the disks to the destination with
 * libvirt (storageMigrationPolicy FullCopy or IncCopy) and sends no MigrateVmCmd.disks, so ZStack's agent migrates
 * with the source's XML and each disk keeps its io mode: the stored decisions move to the destination (operation
 * migrate) and keep their mode and checks. (The VM has only its root volume: ZStack live-migrates a LocalStorage VM
 * only without data volumes.)
 */
class AioIoModeLocalStorageMigrationCase extends AioTwoHostsBase {
    @Override
    void environment() {
        env = AioEnvs.twoHostsLocalStorage()
        AioCaseSupport.answerProbe(env) { String hostUuid -> AioCaseSupport.CAPABLE_HOST }
    }

    @Override
    void test() {
        env.create {
            twoHosts()
            testALocalStorageLiveMigrationKeepsWhatTheDisksRun()
        }
    }

    void testALocalStorageLiveMigrationKeepsWhatTheDisksRun() {
        // ZStack refuses to live-migrate a LocalStorage VM with data volumes (a VmPreMigrationExtensionPoint): the root
        String root = vm.rootVolumeUuid
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", root, "io_uring") == null
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        def started = AioCaseSupport.decision(adminSession(), root)
        assert started.effective == "io_uring" && started.hostUuid == kvm && started.operation == "start"

        List<KVMAgentCommands.MigrateVmCmd> migrations = AioCaseSupport.recordMigrations(env)
        String allow = LocalStoragePrimaryStorageGlobalConfig.ALLOW_LIVE_MIGRATION.value()
        LocalStoragePrimaryStorageGlobalConfig.ALLOW_LIVE_MIGRATION.updateValue(true)
        try {
            migrateVm { vmInstanceUuid = vm.uuid; hostUuid = kvm2 }
        } finally {
            LocalStoragePrimaryStorageGlobalConfig.ALLOW_LIVE_MIGRATION.updateValue(allow)
        }
        assert hostOf() == kvm2
        // the disks were copied with the migration, under the source's XML: no disk to write anew
        assert migrations.size() == 1
        assert migrations[0].storageMigrationPolicy in ["FullCopy", "IncCopy"]
        assert migrations[0].disks == null || migrations[0].disks.isEmpty()

        def moved = AioCaseSupport.decision(adminSession(), root)
        assert moved.operation == "migrate" && moved.hostUuid == kvm2 && moved.effective == "io_uring"
        assert AioCaseSupport.checks(moved) == AioCaseSupport.checks(started) && moved.reason == started.reason
    }
}
