package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.kvm.KVMAgentCommands
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.HostInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

/**
 * A node started before `zstack-ctl upgrade_db` created the module's tables: the module's start (AioSchema.check,
 * what start() runs) logs one sentence naming the command; a VM start and a hot-plug then go through as ZStack's stock
 * behaviour, no exception, the start's hook script and the attach's addons absent, and one line says the disks were
 * left to stock; the module's API answers with the same sentence. The tables are renamed aside in the test database
 * (the start reads them only through the schema check) and put back afterwards.
 */
class AioIoModeMissingTableCase extends AioCaseBase {
    static final List<String> TABLES = ["AioVolumeIoModeDecisionVO", "AioHostIoFactsVO", "AioConfigBackupVO", "AioManagementNodeVO",
                                        "AioVolumeWorkloadVO", "AioRefusedIoModeVO"]

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            def schema = bean(Class.forName("org.zstack.aio.zstack.AioSchema"))
            JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
            LogLines log = new LogLines("org.zstack.aio.zstack.AioSchema")
            TABLES.each { jdbc.execute("RENAME TABLE ${it} TO ${it}_aside".toString()) }
            try {
                String said = schema.check()
                assert said != null && said.contains("`zstack-ctl upgrade_db`") && said.contains("AioVolumeIoModeDecisionVO")
                assert log.lines.count { it.contains("`zstack-ctl upgrade_db`") } == 1
                assert !schema.ready()

                testStartAndHotPlugAreStock()
                assert log.lines.count { it.contains("left to ZStack's stock io mode") } == 1: log.lines

                def a = AioCaseSupport.sdk("GetIoModeManagementNodesAction")
                a.sessionId = adminSession()
                assert a.call().error.details.contains("zstack-ctl upgrade_db")
            } finally {
                TABLES.each { jdbc.execute("RENAME TABLE ${it}_aside TO ${it}".toString()) }
                log.detach()
                assert schema.check() == null && schema.ready()
            }
        }
    }

    void testStartAndHotPlugAreStock() {
        VmInstanceInventory vm = env.inventoryByName("vm") as VmInstanceInventory
        String host = (env.inventoryByName("kvm") as HostInventory).uuid
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Running
        assert starts.size() == 1 && starts[0].addons["userDefinedXmlHookScript"] == null

        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        VolumeInventory vol = createDataVolume {
            name = "hot-stock"
            diskOfferingUuid = offering.uuid
            primaryStorageUuid = env.inventoryByName("local").uuid
            systemTags = ["localStorage::hostUuid::${host}".toString()]
        } as VolumeInventory
        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = vol.uuid }
        assert attaches.size() == 1
        assert attaches[0].addons["NativeAio"] == null && attaches[0].addons["aioIoMode"] == null
        detachDataVolumeFromVm { uuid = vol.uuid }
    }
}
