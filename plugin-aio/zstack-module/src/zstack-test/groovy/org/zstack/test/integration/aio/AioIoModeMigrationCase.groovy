package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.header.host.HostVO
import org.zstack.header.host.HostVO_
import org.zstack.sdk.HostInventory
import org.zstack.sdk.MigrateVmAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.gson.JSONObjectUtil

/**
 * Live migration keeps each disk's mode (ZStack migrates with the source's XML): a host that cannot run an io_uring
 * disk is no migration candidate, and a MigrateVm aimed at it is refused naming the disk and the missing capability.
 * Without an io_uring disk the same host is a candidate again.
 */
class AioIoModeMigrationCase extends AioCaseBase {
    String kvm, kvm2, data
    VmInstanceInventory vm

    @Override
    void environment() {
        env = AioEnvs.twoHostsSharedMountPoint()
        // kvm runs io_uring; kvm2's kernel has it switched off
        AioCaseSupport.answerProbe(env) { String hostUuid ->
            String ip = Q.New(HostVO.class).select(HostVO_.managementIp).eq(HostVO_.uuid, hostUuid).findValue()
            return ip == "127.0.0.1" ? AioCaseSupport.CAPABLE_HOST.replace("io_uring_disabled=0", "io_uring_disabled=2")
                    : AioCaseSupport.CAPABLE_HOST
        }
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            kvm = env.inventoryByName("kvm").uuid
            kvm2 = env.inventoryByName("kvm2").uuid
            data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)[0].uuid
            AioCaseSupport.qemuKvm(kvm, "8.2.0")
            AioCaseSupport.qemuKvm(kvm2, "8.2.0")
            assert AioCaseSupport.hostFacts(adminSession(), kvm2).ioUringDisabled == 2
            testAHostThatCannotRunAnIoUringDiskIsNoCandidate()
            testWithoutAnIoUringDiskItIsACandidate()
        }
    }

    private void restart() {
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid; hostUuid = kvm }
    }

    void testAHostThatCannotRunAnIoUringDiskIsNoCandidate() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data, "io_uring") == null
        restart()
        assert AioCaseSupport.decision(adminSession(), data).effective == "io_uring"

        List<HostInventory> candidates = getVmMigrationCandidateHosts { vmInstanceUuid = vm.uuid } as List<HostInventory>
        assert !candidates*.uuid.contains(kvm2)

        MigrateVmAction a = new MigrateVmAction()
        a.vmInstanceUuid = vm.uuid
        a.hostUuid = kvm2
        a.sessionId = adminSession()
        def r = a.call()
        assert r.error != null
        // ZStack's allocation error; its cause is the filter's sentence
        String why = JSONObjectUtil.toJsonString(r.error)
        assert why.contains("(${data})") && why.contains("runs io_uring")
        assert why.contains("check io_uring-sysctl failed") && why.contains("kernel.io_uring_disabled is 2")
        assert Q.New(org.zstack.header.vm.VmInstanceVO.class).select(org.zstack.header.vm.VmInstanceVO_.hostUuid)
                .eq(org.zstack.header.vm.VmInstanceVO_.uuid, vm.uuid).findValue() == kvm
    }

    void testWithoutAnIoUringDiskItIsACandidate() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data, "threads") == null
        restart()
        List<HostInventory> candidates = getVmMigrationCandidateHosts { vmInstanceUuid = vm.uuid } as List<HostInventory>
        assert candidates*.uuid == [kvm2]
    }
}
