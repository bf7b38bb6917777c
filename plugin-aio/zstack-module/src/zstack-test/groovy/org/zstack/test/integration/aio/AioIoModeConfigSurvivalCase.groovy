package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.sdk.VmInstanceInventory

/**
 * The admin's three values (global kvm/vm.ioMode, allowFalloc on the primary storage, vm.ioMode on a volume) survive
 * a management node booting without the module: the module copies each change into AioConfigBackupVO, ZStack's boot
 * without the module deletes the global rows (ConfigBootStandIn: GlobalConfigFacadeImpl's own statements), the boot
 * with it creates them again at the default, and the module's start (restoreConfigs, what start() runs after ZStack's
 * config boot) writes the admin's values back through ZStack's config API; the decisions are the same afterwards. A
 * value the admin sets after the copy, and a change of ZStack's row the module did not hear, are never overwritten.
 */
class AioIoModeConfigSurvivalCase extends AioCaseBase {
    VmInstanceInventory vm
    String ps, root
    List<String> data
    def module

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            module = bean(Class.forName("org.zstack.aio.zstack.AioIoModeComponent"))
            vm = env.inventoryByName("vm") as VmInstanceInventory
            ps = env.inventoryByName("local").uuid
            root = vm.rootVolumeUuid
            data = vm.allVolumes*.uuid - [root]
            try {
                testTheAdminsValuesAreCopied()
                testABootWithoutTheModuleLosesNothing()
                testAValueSetAfterTheCopyIsTheOneRestored()
                testAChangeTheModuleDidNotHearIsKept()
            } finally {
                ["vm.ioMode": "threads", "vm.ioMode.onUnsatisfied": "fallback", "vm.ioMode.native.allowFalloc": "false"].each { n, v ->
                    assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", n, v) == null
                }
            }
        }
    }

    JdbcTemplate jdbc() {
        return new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
    }

    /** scope ("global" or a resource uuid) -> [value, liveRowId] of the module's copies of config {@code name} */
    Map<String, List<String>> copies(String name) {
        Map<String, List<String>> out = [:]
        jdbc().query("SELECT scope, value, liveRowId FROM AioConfigBackupVO WHERE category = 'kvm' AND name = ?",
                { rs -> out[rs.getString(1)] = [rs.getString(2), rs.getString(3)] } as org.springframework.jdbc.core.RowCallbackHandler, name)
        return out
    }

    String resourceRow(String name, String resourceUuid) {
        List<String> v = jdbc().queryForList("SELECT value FROM ResourceConfigVO WHERE category = 'kvm' AND name = ? AND resourceUuid = ?",
                String.class, name, resourceUuid)
        return v.isEmpty() ? null : v[0]
    }

    void assertDecisions() {
        rebootVmInstance { uuid = vm.uuid }
        def r = AioCaseSupport.decision(adminSession(), root)
        assert r.requested == "threads" && r.source == "VolumeVO" && r.effective == "threads"
        data.each { u ->
            def d = AioCaseSupport.decision(adminSession(), u)
            assert d.requested == "native" && d.source == "global" && d.effective == "native": d.reason
        }
    }

    void testTheAdminsValuesAreCopied() {
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "native") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode.native.allowFalloc", ps, "true") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", root, "threads") == null
        assertDecisions()

        assert copies("vm.ioMode")["global"] == ["native", ConfigBootStandIn.rowId("vm.ioMode") as String]
        assert copies("vm.ioMode")[root][0] == "threads"
        assert copies("vm.ioMode.native.allowFalloc")[ps][0] == "true"
    }

    void testABootWithoutTheModuleLosesNothing() {
        long before = ConfigBootStandIn.rowId("vm.ioMode")
        ConfigBootStandIn.bootWithoutTheModule()
        assert ConfigBootStandIn.row("vm.ioMode") == null
        ConfigBootStandIn.bootWithTheModule()
        // what an admin found after a ZStack upgrade and a reinstall, before this copy existed
        assert ConfigBootStandIn.row("vm.ioMode") == "threads" && ConfigBootStandIn.inMemory("vm.ioMode") == "threads"
        assert ConfigBootStandIn.rowId("vm.ioMode") != before
        // a resource row lost without the module hearing it (ZStack's boot keeps them; a hand-made DELETE does not)
        jdbc().update("DELETE FROM ResourceConfigVO WHERE category = 'kvm' AND name = 'vm.ioMode' AND resourceUuid = ?", root)

        def restored = module.restoreConfigs()
        // (in the suite, other cases' leftovers may be restored too: only this case's values are counted)
        def mine = restored.restored.findAll { it.startsWith("kvm/vm.ioMode = native (global)") || it.contains(root) || it.contains(ps) }
        assert mine.size() == 2: restored.restored
        assert restored.refused.isEmpty()
        assert ConfigBootStandIn.row("vm.ioMode") == "native" && ConfigBootStandIn.inMemory("vm.ioMode") == "native"
        assert resourceRow("vm.ioMode", root) == "threads"
        assert resourceRow("vm.ioMode.native.allowFalloc", ps) == "true"
        // the copy follows ZStack's new row
        assert copies("vm.ioMode")["global"] == ["native", ConfigBootStandIn.rowId("vm.ioMode") as String]
        assertDecisions()
        // a second start changes nothing
        def again = module.restoreConfigs()
        assert again.restored.isEmpty() && again.adopted.isEmpty() && again.copied == 0: "${again.restored} ${again.adopted} ${again.copied}"
    }

    void testAValueSetAfterTheCopyIsTheOneRestored() {
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "auto") == null
        assert copies("vm.ioMode")["global"][0] == "auto"
        ConfigBootStandIn.bootWithoutTheModule()
        ConfigBootStandIn.bootWithTheModule()
        module.restoreConfigs()
        assert ConfigBootStandIn.row("vm.ioMode") == "auto" && ConfigBootStandIn.inMemory("vm.ioMode") == "auto"
    }

    void testAChangeTheModuleDidNotHearIsKept() {
        // ZStack's own row changed without the API (an upgrade script, SQL by hand), as ZStack's boot then loads it
        jdbc().update("UPDATE GlobalConfigVO SET value = 'io_uring' WHERE category = 'kvm' AND name = 'vm.ioMode'")
        bean(org.zstack.core.config.GlobalConfigFacade.class).getAllConfig()["kvm.vm.ioMode"].setValue("io_uring")
        def restored = module.restoreConfigs()
        assert restored.restored.isEmpty()
        assert restored.adopted.size() == 1 && restored.adopted[0].contains("io_uring"): restored.adopted
        assert ConfigBootStandIn.row("vm.ioMode") == "io_uring"
        assert copies("vm.ioMode")["global"][0] == "io_uring"
    }
}
