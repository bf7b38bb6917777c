package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.xmlhook.XmlHookVmInstanceRefVO
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.HostInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

import java.sql.Timestamp

/**
 * A whole VM lifecycle with plugin-aio in ZStack (start, stop, reboot, hot-plug, detach, destroy): ZStack's own flow
 * still works, every start and hot-plug carries the decided modes, and an admin's own XML hook script is kept and
 * still runs (with root and hook in scope) next to the generated one.
 */
class AioIoModeLifecycleCase extends AioCaseBase {
    VmInstanceInventory vm
    String ps, host

    @Override
    protected List<String> extraSpringXml() {
        return ["AioAdminXmlHookDelivery.xml"]
    }

    static final String ADMIN_HOOK = """d = hook.create_element('description')
d.text = 'set by the admin hook'
hook.add_element_to_parent(d, root)
"""

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            ps = env.inventoryByName("local").uuid
            host = (env.inventoryByName("kvm") as HostInventory).uuid
            assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
            assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", ps, "native") == null

            testStartKeepsTheAdminsHook()
            testReboot()
            testHotPlugAndDetach()
            testDestroy()
        }
    }

    void testStartKeepsTheAdminsHook() {
        def hook = createVmUserDefinedXmlHookScript {
            name = "admin-hook"
            hookScript = ADMIN_HOOK
        }
        XmlHookVmInstanceRefVO ref = new XmlHookVmInstanceRefVO()
        ref.xmlHookUuid = hook.uuid
        ref.vmInstanceUuid = vm.uuid
        ref.createDate = new Timestamp(System.currentTimeMillis())
        ref.lastOpDate = ref.createDate
        bean(DatabaseFacade.class).persist(ref)

        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Stopped
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Running

        Map<String, String> xml = AioHookRunner.hookedXml(starts[0])
        assert xml.size() == 2
        xml.values().each { String x -> assert x.contains("<description>set by the admin hook</description>") }
        Map<String, Map<String, String>> disks = AioHookRunner.run(starts[0])
        assert disks.size() == 3
        disks.values().each { assert it == [io: "native", cache: "none"] }
        // the admin's script, as ZStack stored it (its API trims the text), travels unchanged inside the generated one
        String generated = new String(Base64.decoder.decode(starts[0].addons["userDefinedXmlHookScript"] as String), "UTF-8")
        assert generated.contains(Base64.encoder.encodeToString(hook.hookScript.getBytes("UTF-8")))
        assert hook.hookScript == ADMIN_HOOK.trim()
    }

    void testReboot() {
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        rebootVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        assert AioHookRunner.run(starts[0])[vm.rootVolumeUuid] == [io: "native", cache: "none"]
        assert AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid).operation == "start"
    }

    void testHotPlugAndDetach() {
        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        VolumeInventory nativeVol = createDataVolume {
            name = "hot-native"
            diskOfferingUuid = offering.uuid
            primaryStorageUuid = ps
            systemTags = ["localStorage::hostUuid::${host}".toString()]
        } as VolumeInventory
        VolumeInventory threadsVol = createDataVolume {
            name = "hot-threads"
            diskOfferingUuid = offering.uuid
            primaryStorageUuid = ps
            systemTags = ["localStorage::hostUuid::${host}".toString()]
        } as VolumeInventory
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", threadsVol.uuid, "threads") == null

        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = nativeVol.uuid }
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = threadsVol.uuid }
        assert attaches.size() == 2
        KVMAgentCommands.AttachDataVolumeCmd n = attaches.find { it.volume.volumeUuid == nativeVol.uuid }
        KVMAgentCommands.AttachDataVolumeCmd t = attaches.find { it.volume.volumeUuid == threadsVol.uuid }
        // native goes through the agent's NativeAio addon
        assert n.addons["NativeAio"] == true
        assert n.volume.cacheMode == "none"
        // threads: no NativeAio; on a file disk the unmodified agent writes no io attribute, which is QEMU's threads
        assert t.addons["NativeAio"] == null
        assert (t.addons["aioIoMode"] as Map)[threadsVol.uuid] == "threads"

        def dn = AioCaseSupport.decision(adminSession(), nativeVol.uuid)
        assert dn.operation == "attach" && dn.effective == "native" && dn.source == "PrimaryStorageVO" && dn.vmInstanceUuid == vm.uuid
        def dt = AioCaseSupport.decision(adminSession(), threadsVol.uuid)
        assert dt.operation == "attach" && dt.effective == "threads" && dt.source == "VolumeVO"
        assert !dt.reason.contains("at hot-plug")

        detachDataVolumeFromVm { uuid = nativeVol.uuid }
        detachDataVolumeFromVm { uuid = threadsVol.uuid }
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Running
        // the next start decides the VM's own disks only
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        rebootVmInstance { uuid = vm.uuid }
        assert AioHookRunner.run(starts[0]).keySet() == ([vm.rootVolumeUuid] + vm.allVolumes*.uuid).toSet()
    }

    void testDestroy() {
        destroyVmInstance { uuid = vm.uuid }
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Destroyed
        bean(Class.forName("org.zstack.aio.zstack.IoModeDecisionStore")).awaitAllWrites()
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        // the stored decisions stay with their volumes (rows go when ZStack removes a volume's record for good):
        // the VM's three disks and the two volumes hot-plugged into it
        assert jdbc.queryForObject("SELECT COUNT(*) FROM AioVolumeIoModeDecisionVO WHERE vmInstanceUuid = ?", Integer.class, vm.uuid) == 5
    }
}
