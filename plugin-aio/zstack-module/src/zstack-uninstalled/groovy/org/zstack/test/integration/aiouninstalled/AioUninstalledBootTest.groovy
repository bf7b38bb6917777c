package org.zstack.test.integration.aiouninstalled

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.Platform
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.sdk.HostInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.test.integration.aio.AioEnvs
import org.zstack.test.integration.aio.AioLogWatch
import org.zstack.testlib.EnvSpec
import org.zstack.testlib.Test

/**
 * A management node WITHOUT plugin-aio (its jar, Spring file and config XML absent, as after `install.sh uninstall`)
 * on a database that still holds everything the module left: its tables with rows, the admin's global values of its
 * configs (with no definition behind them any more), resource overrides on a volume and a primary storage. The node
 * boots, runs VMs, changes a volume's config, deletes volumes, the VM and the host; nothing the module left makes
 * ZStack log a warning or an error, and ZStack's own deletions take the module's rows with them.
 * Run by bin/lib/zstack-cases.sh without the module (its own run, not in the suite AioIoModeTest).
 */
class AioUninstalledBootTest extends Test {
    static final String MODULE_NAMES = /(?i)vm\.ioMode|Aio[A-Za-z]*VO|aioIoMode|plugin-aio|org\.zstack\.aio/
    EnvSpec env

    @Override
    void setup() {
        // AioCaseSupport.spring() minus the module's AioIoMode.xml
        useSpring(makeSpring {
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
        })
    }

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
            // the module is really absent from this node
            try {
                Class.forName("org.zstack.aio.zstack.AioIoModeComponent")
                assert false: "the module's classes are on this node's classpath"
            } catch (ClassNotFoundException expected) {
            }
            // ZStack's boot removed the global rows whose definition is gone; the module's copies stayed in its table
            assert jdbc.queryForObject("select count(*) from GlobalConfigVO where category = 'kvm' and name like 'vm.ioMode%'", Integer) == 0
            assert jdbc.queryForObject("select count(*) from AioConfigBackupVO where scope = 'global'", Integer) == 3

            VmInstanceInventory vm = env.inventoryByName("vm") as VmInstanceInventory
            String ps = env.inventoryByName("local").uuid
            String host = (env.inventoryByName("kvm") as HostInventory).uuid
            List<String> volumes = jdbc.queryForList("select uuid from VolumeVO where vmInstanceUuid = ?", String, vm.uuid)
            String data = jdbc.queryForList("select uuid from VolumeVO where vmInstanceUuid = ? and type = 'Data'", String, vm.uuid)[0]
            assert volumes.size() == 3 && data != null
            leaveModuleRows(jdbc, vm.uuid, host, ps, volumes, data)

            AioLogWatch log = new AioLogWatch().attach()
            try {
                stopVmInstance { uuid = vm.uuid }
                startVmInstance { uuid = vm.uuid }
                assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Running
                // ZStack's resource config API over a volume that still carries the module's override
                def configs = getResourceConfigs { resourceUuid = data; category = "kvm"; names = ["vm.cacheMode"] }
                assert configs != null
                updateResourceConfig { category = "kvm"; name = "vm.cacheMode"; resourceUuid = data; value = "writeback" }
                assert queryResourceConfig { conditions = ["resourceUuid=${data}", "name=vm.cacheMode"] }[0].value == "writeback"
                // deletions: ZStack's own foreign keys take the module's rows with them
                detachDataVolumeFromVm { uuid = data }
                deleteDataVolume { uuid = data }
                expungeDataVolume { uuid = data }
                assert jdbc.queryForObject("select count(*) from AioVolumeIoModeDecisionVO where volumeUuid = ?", Integer, data) == 0
                assert jdbc.queryForObject("select count(*) from ResourceConfigVO where resourceUuid = ?", Integer, data) == 0
                destroyVmInstance { uuid = vm.uuid }
                expungeVmInstance { uuid = vm.uuid }
                assert jdbc.queryForObject("select count(*) from AioVolumeIoModeDecisionVO where volumeUuid = ?", Integer, vm.rootVolumeUuid) == 0
                deleteHost { uuid = host }
                assert jdbc.queryForObject("select count(*) from AioHostIoFactsVO", Integer) == 0
            } finally {
                log.detach()
            }
            def caused = log.seen.findAll { it.toString() =~ MODULE_NAMES || (it.thrownMessage ?: "") =~ MODULE_NAMES }
            assert caused.isEmpty(): "ZStack logged what the module left: ${caused}"
            System.out.println("aio-uninstalled: booted and ran without the module over its leftovers; ${log.seen.size()} WARN+ events, none naming the module")
        }
    }

    /** The rows a node that ran the module leaves on live resources (the module's own writes, as SQL). */
    private static void leaveModuleRows(JdbcTemplate jdbc, String vm, String host, String ps, List<String> volumes, String data) {
        volumes.each { String v ->
            jdbc.update("insert into AioVolumeIoModeDecisionVO (volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source," +
                    " effective, refused, checks, reason, appliedIo, appliedCache, createDate) values (?, ?, ?, 'start', 'native'," +
                    " 'PrimaryStorageVO', 'native', 0, '[]', 'native requested (PrimaryStorageVO) and all its checks passed.'," +
                    " 'native', 'none', now())", v, vm, host)
        }
        jdbc.update("insert into AioHostIoFactsVO (hostUuid, probeOutput, createDate) values (?, 'kernel=6.8.0\nqemu_io_uring=yes\n', now())", host)
        jdbc.update("insert into AioManagementNodeVO (managementNodeUuid, hostName, moduleVersion, builtForZStack, createDate)" +
                " values (?, 'localhost', '1.0.0', '5.2.0', now())", Platform.getManagementServerId())
        [[data, "VolumeVO"], [ps, "PrimaryStorageVO"]].each { List<String> r ->
            String uuid = UUID.randomUUID().toString().replace("-", "")
            jdbc.update("insert into ResourceConfigVO (uuid, name, description, category, value, resourceUuid, resourceType, createDate)" +
                    " values (?, 'vm.ioMode', 'left by plugin-aio', 'kvm', 'native', ?, ?, now())", uuid, r[0], r[1])
            jdbc.update("insert into AioConfigBackupVO (category, name, scope, resourceUuid, resourceType, value, liveRowId, createDate)" +
                    " values ('kvm', 'vm.ioMode', ?, ?, ?, 'native', ?, now())", r[0], r[0], r[1], uuid)
        }
    }
}
