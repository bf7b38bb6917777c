package org.zstack.test.integration.aio

import org.zstack.core.config.GlobalConfig
import org.zstack.core.config.GlobalConfigFacade
import org.zstack.core.config.GlobalConfigVO
import org.zstack.core.config.GlobalConfigVO_
import org.zstack.core.db.DatabaseFacade
import org.zstack.core.db.Q
import org.zstack.core.db.SQL
import org.zstack.core.Platform

/**
 * What ZStack's config boot (GlobalConfigFacadeImpl.start, GlobalConfigInitializer) does to the module's global
 * configs, reproduced statement for statement: ZStack's boot runs once per JVM and cannot be run again without the
 * module's classes in this one. A boot without the module: persistConfigInXmlButNotInDatabase puts every
 * GlobalConfigVO row without a definition into toRemove and deletes it with this very SQL.New(...).delete(). The next
 * boot with the module: the definition has no row, so it persists the definition's toVO() (at its default: the XML
 * definition's value is its default) as a new row (a new id), and mergeXmlDatabase / initAllConfig leave the
 * in-memory value at the default. ResourceConfigFacadeImpl.start deletes nothing (it only builds the bindings).
 */
class ConfigBootStandIn {
    static final List<String> NAMES = ["vm.ioMode", "vm.ioMode.onUnsatisfied", "vm.ioMode.native.allowFalloc"]

    /** The GlobalConfigVO rows a boot without the module deletes. */
    static void bootWithoutTheModule() {
        NAMES.each { n ->
            SQL.New(GlobalConfigVO.class).eq(GlobalConfigVO_.category, "kvm").eq(GlobalConfigVO_.name, n).delete()
        }
    }

    /** ZStack's config boot with the module again: each definition without a row gets a new row at its default. */
    static void bootWithTheModule() {
        Map<String, GlobalConfig> all = Platform.getComponentLoader().getComponent(GlobalConfigFacade.class).getAllConfig()
        NAMES.each { n ->
            GlobalConfig g = all["kvm." + n]
            assert g != null: "kvm/${n} has no definition"
            g.setValue(g.defaultValue)
            if (!Q.New(GlobalConfigVO.class).eq(GlobalConfigVO_.category, "kvm").eq(GlobalConfigVO_.name, n).isExists()) {
                Platform.getComponentLoader().getComponent(DatabaseFacade.class).persist(g.toVO())
            }
        }
    }

    static String row(String name) {
        GlobalConfigVO vo = Q.New(GlobalConfigVO.class).eq(GlobalConfigVO_.category, "kvm").eq(GlobalConfigVO_.name, name).find()
        return vo == null ? null : vo.value
    }

    static long rowId(String name) {
        return Q.New(GlobalConfigVO.class).eq(GlobalConfigVO_.category, "kvm").eq(GlobalConfigVO_.name, name).find().id
    }

    static String inMemory(String name) {
        return Platform.getComponentLoader().getComponent(GlobalConfigFacade.class).getAllConfig()["kvm." + name].value()
    }
}
